/**
 * A probe of what one ingestion request costs the MongoDB-API store, not part of `npm run bench`:
 * the records service's own use case, repositories and outbox on the MongoDB adapter (build
 * first), with the driver's command monitoring on. For 1- and 100-record requests of a user with
 * no records and of a user holding N (default 30,000), it prints each request's commands (how
 * many, which, their summed server time) and its wall time, beside the raw driver's insertOne and
 * insertMany of 100 on the same server. Events go to a log that drops them: the store is measured.
 *   WELLSTREAM_TEST_MONGO_URL=mongodb://127.0.0.1:<port> node bench/ingestion-commands.probe.mjs [N]
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const mongoose = require(require.resolve('mongoose', { paths: [path.join(root, 'libs/store')] }));
// Every connection the store opens reports its commands.
const createConnection = mongoose.createConnection.bind(mongoose);
mongoose.createConnection = (url, options) => createConnection(url, { ...options, monitorCommands: true });

const { MongoDocumentStore } = require(path.join(root, 'libs/store/dist/document-store.mongo.js'));
const dist = (p) => require(path.join(root, 'services/records/dist', p));
const { RecordRepository } = dist('records/record.repository.js');
const { RecordKeysRepository } = dist('records/record-keys.repository.js');
const { UserProjectionRepository, USER_PROJECTION_SPEC } = dist('users/user-projection.repository.js');
const { ingestRecords, MAX_BATCH_RECORDS } = dist('records/ingest-records/ingest-records.usecase.js');
const { BatchByKey } = dist('records/batch-by-key.js');
const { Outbox } = require(path.join(root, 'libs/outbox/dist/index.js'));

const url = process.env.WELLSTREAM_TEST_MONGO_URL;
if (!url) throw new Error('set WELLSTREAM_TEST_MONGO_URL (the test servers: deploy/servers/servers.sh start <dir>)');
const N = Number(process.argv[2] ?? 30_000);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 15);
const prefix = `probe_test_${randomBytes(3).toString('hex')}`;
const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; } };
const store = new MongoDocumentStore({ url, dbName: `${prefix}_records`, logger: quiet });

let seen = null;
const started = new Map();
const client = () => store.conn.getClient();
const published = { count: 0 };
const eventLog = { publish: async (_topic, messages) => void (published.count += messages.length) };

const records = await RecordRepository.open(store);
const keys = await RecordKeysRepository.open(store);
const users = await UserProjectionRepository.open(store);
const outbox = await Outbox.open(store, { eventLog, logger: quiet });
const deps = { records, keys, outbox, users, batches: new BatchByKey(MAX_BATCH_RECORDS), clock: { now: () => new Date() }, counts: { add() {} } };
client().on('commandStarted', (e) => {
  if (seen) started.set(e.requestId, { name: e.commandName, coll: String(e.command[e.commandName]).replace(/__p[0-9a-f]+$/, '__p…'), n: Array.isArray(e.command.documents) ? e.command.documents.length : undefined });
});
client().on('commandSucceeded', (e) => {
  const c = started.get(e.requestId);
  if (c && seen) seen.push({ ...c, ms: e.duration });
  started.delete(e.requestId);
});

const projection = await store.collection(USER_PROJECTION_SPEC);
async function newUser(uid) {
  const user = { _id: `u-${uid}-${randomBytes(4).toString('hex')}`, uid, organization_id: 'org-probe', customer_id: 'cus-probe', status: 'active', timezone: 'Europe/Berlin', timezone_origin: 'user', mobile_token: `mt-${uid}`, updated_at: new Date().toISOString() };
  await projection.insertOne(user);
  return user;
}
let serial = 0;
const measurement = () => {
  const n = serial++;
  const at = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
  return { type: 'measurement', source: { type: 'withings' }, log_id: `p-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + (n % 100_000) / 1000, origin: 'device' }] };
};

/** One request, its commands (the relay's publish of its events included) and its wall time. */
async function request(user, size) {
  seen = [];
  const t0 = performance.now();
  await ingestRecords(deps, user, { records: Array.from({ length: size }, measurement) });
  const answered = performance.now() - t0;
  await outbox.drain();
  const commands = seen;
  seen = null;
  return { answered, commands };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function scenario(label, user, size) {
  await request(user, size); // warm
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await request(user, size));
  const last = runs[runs.length - 1].commands;
  const shape = last.map((c) => `${c.name} ${c.coll}${c.n ? `[${c.n}]` : ''} ${c.ms.toFixed(1)}`).join('; ');
  const p50 = median(runs.map((r) => r.answered));
  console.log(`${label}: answer p50 ${p50.toFixed(1)} ms (${((size * 1000) / p50).toFixed(0)} records/s sequential), commands ${median(runs.map((r) => r.commands.length))} (server ${median(runs.map((r) => r.commands.reduce((s, c) => s + c.ms, 0))).toFixed(1)} ms)`);
  console.log(`  last: ${shape}`);
  return p50;
}

async function raw() {
  const coll = client().db(`${prefix}_raw`).collection('raw');
  const doc = (i) => ({ _id: `raw-${i}-${randomBytes(4).toString('hex')}`, payload: 'x'.repeat(900) });
  let t0 = performance.now();
  for (let i = 0; i < 200; i++) await coll.insertOne(doc(i));
  const one = (performance.now() - t0) / 200;
  t0 = performance.now();
  for (let i = 0; i < 20; i++) await coll.insertMany(Array.from({ length: 100 }, (_, k) => doc(i * 100 + k)), { ordered: false });
  const many = (performance.now() - t0) / 20;
  console.log(`raw driver, same server: insertOne ${one.toFixed(2)} ms, insertMany of 100 ${many.toFixed(1)} ms (${((100 * 1000) / many).toFixed(0)} docs/s sequential)`);
  return { one, many };
}

try {
  const ref = await raw();
  const e1 = await scenario('1 record, empty user', await newUser('empty-1'), 1);
  const e100 = await scenario('100 records, empty user', await newUser('empty-100'), 100);
  const full = await newUser('full');
  const t0 = performance.now();
  for (let i = 0; i < N; i += 1000) await ingestRecords(deps, full, { records: Array.from({ length: Math.min(1000, N - i) }, measurement) });
  await outbox.drain();
  console.log(`filled one user with ${N} records in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const f1 = await scenario(`1 record, user holding ${N}`, full, 1);
  const f100 = await scenario(`100 records, user holding ${N}`, full, 100);
  console.log(`after/empty: 1 record ${(f1 / e1).toFixed(2)}x, 100 records ${(f100 / e100).toFixed(2)}x; empty 1-record p50 = ${(e1 / ref.one).toFixed(1)} raw insertOne; empty 100-record = ${(ref.many / e100).toFixed(3)} of raw insertMany`);
  console.log(`events published: ${published.count}`);
} finally {
  await outbox.stop();
  for (const d of ['records', 'raw']) await client().db(`${prefix}_${d}`).dropDatabase().catch(() => undefined);
  await store.close();
}
