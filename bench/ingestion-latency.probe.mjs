#!/usr/bin/env node
/**
 * A probe of where a single-record upload's time goes on the distributed runtime, not part of
 * `npm run bench` (build first):
 *
 *   node bench/ingestion-latency.probe.mjs [--requests 200] [--root DIR]
 *
 * Every service its own process on the real servers (bench/distributed-platform.mjs; the servers
 * named by WELLSTREAM_TEST_* or started here). One after another, p50 and p90 of: the records
 * service's own /health (one HTTP hop), an empty upload through the gateway (refused 400 by the
 * records service before any store command: the gateway hop and the HTTP path alone), a
 * one-record upload through the gateway, and the raw driver's insertOne on the same server: the
 * floor an upload cannot go below, in raw insertOne round trips. Loopback only, bounded counts.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { args, createTenant, createUser, pct, until } from './harness.mjs';
import { endRun, serversFor, startAllServices } from './distributed-platform.mjs';
import { root as ownRoot } from './processes.mjs';

const N = Number(args.requests ?? 200);
const require = createRequire(import.meta.url);
const { MongoClient } = require(require.resolve('mongoose', { paths: [path.join(ownRoot, 'libs/store')] })).mongo;

const servers = serversFor(args['servers-state']);
const platform = await startAllServices(servers.env, {});
const mongo = await MongoClient.connect(servers.env.WELLSTREAM_MONGO_URL);
const B = platform.base;
let n = 0;
const record = () => {
  const at = new Date(Date.UTC(2025, 0, 1) + n++ * 60_000).toISOString().replace('.000Z', 'Z');
  return { type: 'measurement', source: { type: 'withings' }, log_id: `p-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + n / 1000, origin: 'device' }] };
};
try {
  const tenant = await createTenant(B, 'probe');
  const user = await createUser(B, tenant, 'latency');
  const upload = (body, ok) => async () => {
    const r = await fetch(`${B}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body() });
    const text = await r.text();
    if (r.status !== ok) throw new Error(`POST /mobile/records: ${r.status} ${text.slice(0, 200)}`);
  };
  await until('records to know the user', async () => {
    const r = await fetch(`${B}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [record()] }) });
    await r.arrayBuffer();
    return r.status === 200;
  });
  const time = async (fn) => {
    for (let i = 0; i < 30; i++) await fn();
    const t = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      await fn();
      t.push(performance.now() - t0);
    }
    return { p50: pct(t, 50), p90: pct(t, 90) };
  };
  const raw = mongo.db(`${platform.prefix}_raw`).collection('raw_one');
  const rows = [
    ['records service GET /health, direct', () => fetch(`${platform.urls.records}/health`).then((r) => r.arrayBuffer())],
    ['empty upload through the gateway (400, no store command)', upload(() => '{"records":[]}', 400)],
    ['1-record upload through the gateway', upload(() => JSON.stringify({ records: [record()] }), 200)],
    ['raw insertOne, same server', () => raw.insertOne({ _id: `raw-${n++}`, user_id: 'u', value: n })],
  ];
  const results = [];
  for (const [label, fn] of rows) results.push([label, await time(fn)]);
  const one = results[3][1].p50;
  for (const [label, r] of results) console.log(`${label.padEnd(58)} p50 ${r.p50.toFixed(2).padStart(6)} ms  p90 ${r.p90.toFixed(2).padStart(6)} ms  = ${(r.p50 / one).toFixed(1)} raw insertOne`);
} finally {
  await endRun({ mongo, platform, servers });
}
process.exit(0);
