/**
 * Does ingestion stay fast as data grows? Distributed runtime (Kafka, the MongoDB API, Redis; the
 * test servers, FerretDB v1 on SQLite): p50 of single-record requests on empty stores, then again
 * after 50,000 stored records (100 users × 500), for a user holding 500 records and for a new one.
 * Reference, same run and server: the raw driver's sequential insertOne rate.
 *
 * Uses the servers named by WELLSTREAM_TEST_KAFKA_BROKERS / _MONGO_URL / _REDIS_URL when set,
 * otherwise starts its own with deploy/servers (and stops them). Bounded: fixed request counts.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { load, fmt } from './load.mjs';
import { root } from './processes.mjs';

process.env.WELLSTREAM_LOG_LEVEL ??= 'silent';
const require = createRequire(import.meta.url);
const { startPlatform } = require('../platform/dist/index.js');
const { MongoClient } = require(require.resolve('mongoose', { paths: [path.join(root, 'libs/store')] })).mongo;

const USERS = 100;
const PER_USER = 500;
const PROBES = 200;

let stateDir;
let servers = {
  kafka: process.env.WELLSTREAM_TEST_KAFKA_BROKERS,
  mongo: process.env.WELLSTREAM_TEST_MONGO_URL,
  redis: process.env.WELLSTREAM_TEST_REDIS_URL,
};
if (!servers.kafka || !servers.mongo || !servers.redis) {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-servers-'));
  execFileSync('bash', [path.join(root, 'deploy/servers/servers.sh'), 'start', stateDir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const env = Object.fromEntries(
    fs.readFileSync(path.join(stateDir, 'servers.env'), 'utf8').split('\n').filter(Boolean).map((l) => l.split('=')),
  );
  servers = { kafka: env.WELLSTREAM_TEST_KAFKA_BROKERS, mongo: env.WELLSTREAM_TEST_MONGO_URL, redis: env.WELLSTREAM_TEST_REDIS_URL };
}

const prefix = `bench_growth_${randomBytes(3).toString('hex')}`;
const mongo = await MongoClient.connect(servers.mongo);

/** Reference: sequential insertOne of record-sized documents, raw driver, same server. */
async function rawInsertRate() {
  const coll = mongo.db(`${prefix}_raw`).collection('raw');
  const doc = (i) => ({ _id: `raw-${i}`, payload: 'x'.repeat(900) });
  const n = 500;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await coll.insertOne(doc(i));
  return Math.round(n / ((performance.now() - t0) / 1000));
}

const admin = 'bench-admin-token-0123456789';
const platform = await startPlatform({
  WELLSTREAM_PORT: '0',
  WELLSTREAM_ADMIN_TOKEN: admin,
  WELLSTREAM_LOG_LEVEL: 'silent',
  WELLSTREAM_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-')),
  WELLSTREAM_MODE: 'distributed',
  WELLSTREAM_KAFKA_BROKERS: servers.kafka,
  WELLSTREAM_MONGO_URL: servers.mongo,
  WELLSTREAM_REDIS_URL: servers.redis,
  WELLSTREAM_TOPIC_PREFIX: `${prefix}.`,
  WELLSTREAM_DB_PREFIX: prefix,
  // The distributed runtime requires the key the sources service seals provider tokens with.
  WELLSTREAM_SOURCE_TOKEN_KEY: randomBytes(32).toString('hex'),
});
const B = platform.baseUrl;
const call = async (method, p, token, body) => {
  const res = await fetch(`${B}${p}${p.includes('?') ? '&' : '?'}token=${token}`, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};
const measurement = (tag, n) => {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
  return { type: 'measurement', source: { type: 'withings' }, log_id: `${tag}-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + (n % 50) / 10, origin: 'device' }] };
};

try {
  const customer = await call('POST', '/admin/customers', admin, { name: 'bench' });
  const org = await call('POST', `/admin/customers/${customer.id}/organizations`, admin, { name: 'bench' });
  const { token } = await call('POST', `/admin/customers/${customer.id}/tokens`, admin, { rate_limit_per_hour: 10_000_000 });
  const newUser = async (uid) => {
    await call('POST', `/organizations/${org.id}/users`, token, { uid, location: { timezone: 'Europe/Berlin', country_code: 'DE' } });
    const mobile = (await call('GET', `/organizations/${org.id}/users/${uid}`, token)).mobile.token;
    for (let i = 0; i < 300; i++) {
      const r = await fetch(`${B}/mobile/records?token=${mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"records":[]}' });
      if (r.status !== 401) return mobile;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`records never learned ${uid}`);
  };
  const probe = async (mobile, tag) => {
    let n = 0;
    return load({ url: `${B}/mobile/records?token=${mobile}`, method: 'POST', total: PROBES, concurrency: 1, timeLimitMs: 120_000, body: () => JSON.stringify({ records: [measurement(tag, n++)] }) });
  };

  const reference = await rawInsertRate();
  const emptyUser = await newUser('probe-empty');
  const empty = await probe(emptyUser, 'empty');

  const fillers = [];
  for (let u = 0; u < USERS; u++) fillers.push(await newUser(`fill-${u}`));
  const t0 = performance.now();
  const fill = await load({
    url: `${B}/mobile/records`,
    method: 'POST',
    total: (USERS * PER_USER) / 100,
    concurrency: 4,
    timeLimitMs: 1_800_000,
    pathFor: (i) => `/v2/mobile/records?token=${fillers[i % USERS]}`,
    body: (i) => {
      return JSON.stringify({ records: Array.from({ length: 100 }, (_, k) => measurement(`fill`, Math.floor(i / USERS) * 100 + k)) });
    },
  });
  const fillSeconds = (performance.now() - t0) / 1000;
  const stored = await mongo.db(`${prefix}_records`).listCollections({}, { nameOnly: true }).toArray();
  let count = 0;
  for (const c of stored.filter((c) => c.name.startsWith('records'))) count += await mongo.db(`${prefix}_records`).collection(c.name).countDocuments({});
  await new Promise((r) => setTimeout(r, 5000)); // let the consumers catch up before measuring
  const fullUser = await probe(fillers[0], 'full');
  const freshUser = await probe(await newUser('probe-fresh'), 'fresh');

  console.log(`distributed runtime (Kafka, FerretDB v1 on SQLite, Redis), ${os.cpus().length} cores, through the gateway`);
  console.log(`reference: raw driver insertOne, sequential: ${reference} docs/s (${(1000 / reference).toFixed(2)} ms each)`);
  console.log(fmt('1 record/request, empty stores', empty));
  console.log(`stored ${count} records in ${fillSeconds.toFixed(0)} s (100-record requests, 4 concurrent): ${Math.round(count / fillSeconds)} records/s ${JSON.stringify(fill.statuses)}`);
  console.log(fmt(`1 record/request, ${count} stored, user has ${PER_USER}`, fullUser));
  console.log(fmt(`1 record/request, ${count} stored, new user`, freshUser));
  console.log(`p50 after/before: ${(fullUser.p50 / empty.p50).toFixed(2)}x (user with ${PER_USER}), ${(freshUser.p50 / empty.p50).toFixed(2)}x (new user); ` +
    `empty p50 = ${(empty.p50 / (1000 / reference)).toFixed(1)}x one raw insertOne`);
} finally {
  await platform.stop();
  for (const d of ['raw', 'gateway', 'users', 'records', 'streams', 'notifications', 'rules']) await mongo.db(`${prefix}_${d}`).dropDatabase().catch(() => undefined);
  await mongo.close();
  if (stateDir) execFileSync('bash', [path.join(root, 'deploy/servers/servers.sh'), 'stop', stateDir], { stdio: ['ignore', 'ignore', 'inherit'] });
}
