#!/usr/bin/env node
/**
 * Ingestion and query speed, embedded runtime (the whole platform in one child process, the load
 * generator in this one):
 *
 *   node bench/ingestion.bench.mjs [--warmup 2000] [--single 2000] [--batches 100] [--rate 500] [--seconds 10] [--root DIR]
 *
 * - records per second through the mobile endpoint, after `--warmup` one-record requests timed
 *   apart (a fresh process's first requests run on code the JIT has not optimized yet):
 *   `--single` one-record requests at 16 concurrent and `--batches` 100-record requests at 4
 *   concurrent (each record validated, checksummed, stored, put in the outbox and published to
 *   three consumer groups), with the platform's CPU per record (from /proc: steadier than
 *   throughput on a shared machine);
 * - a 30-day summaries query;
 * - ingest → stream-client latency: one stream client connected, single records POSTed at a fixed
 *   `--rate` per second for `--seconds` (open loop: a slow answer does not slow the sender), the
 *   time from sending the POST to the record's event arriving on the client, p50/p99; beside it,
 *   how late an idle canary process's timer fired in the same window (bench/host-canary.mjs), so
 *   a p99 bent by the host's own stalls can be told from one the platform caused.
 * Physical references, same run: raw SQLite (better-sqlite3, WAL, synchronous=NORMAL like the
 * embedded store) inserting record-sized JSON rows, one per transaction and 100 per transaction;
 * and for the latency, a bare node:http server (bench/bare-relay.mjs, its own process) relaying
 * each POSTed body to a connected SSE client, at the same rate. `--root` measures another built
 * checkout (e.g. the previous main) with this script. Loopback only; every loop is bounded.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { api, args, canaryLine, createTenant, createUser, openSse, pct, procSample, settle, sleep, startCanary, startEmbedded, until } from './harness.mjs';
import { load, fmt } from './load.mjs';
import { freePort, root as ownRoot, startProcess } from './processes.mjs';

const SINGLE = Number(args.single ?? 2000);
const BATCHES = Number(args.batches ?? 100);
const RATE = Number(args.rate ?? 500);
const SECONDS = Number(args.seconds ?? 10);
const WARMUP = Number(args.warmup ?? 2000);
const require = createRequire(import.meta.url);
const Database = require(require.resolve('better-sqlite3', { paths: [path.join(ownRoot, 'libs/store')] }));

/** Rows per second: `perTx` record-sized JSON rows per transaction, fresh database. */
function rawSqliteRate(perTx, rows) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-raw-'));
  const db = new Database(path.join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (_id, doc) VALUES (?, ?)');
  const tx = db.transaction((from) => {
    for (let i = from; i < from + perTx; i++) insert.run(`row-${i}`, JSON.stringify({ _id: `row-${i}`, user_id: 'u', payload: { pad: 'x'.repeat(700), n: i } }));
  });
  const t0 = performance.now();
  for (let i = 0; i < rows; i += perTx) tx(i);
  const rate = Math.round(rows / ((performance.now() - t0) / 1000));
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return rate;
}

const day = (i) => new Date(Date.UTC(2026, 0, 1) + i * 86400_000).toISOString().slice(0, 10);
// Each record its own content and time: the same content and times under another log id is a
// same-source duplicate, which ingestion answers without storing (docs/merging.md).
const TAG_SECOND = { w: '00', warm: '01', l: '02' };
const measurement = (n, tag = 'w') => ({
  type: 'measurement',
  source: { type: 'withings' },
  log_id: `${tag}-${n}`,
  start_time: `${day(n % 28)}T07:${String(n % 60).padStart(2, '0')}:${TAG_SECOND[tag] ?? '03'}Z`,
  end_time: `${day(n % 28)}T07:${String(n % 60).padStart(2, '0')}:${TAG_SECOND[tag] ?? '03'}Z`,
  metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + (n % 100_000) / 1000, origin: 'device' }],
});
const summary = (i) => ({
  type: 'summary',
  category: 'daily',
  source: { type: 'apple_health' },
  log_id: `s-${i}`,
  start_time: `${day(i)}T00:00:00Z`,
  end_time: `${day(i)}T23:59:59Z`,
  metrics: [
    { type: 'steps', unit: 'count', value: 8000 + i },
    { type: 'distance', unit: 'm', value: 6000 + i },
    { type: 'energy_burned', unit: 'kcal', value: 2300 },
    { type: 'resting_heart_rate', unit: 'bpm', value: 58 },
  ],
});

/**
 * POSTs `body(i)` to `postUrl` at a fixed `rate` for `seconds` (open loop) while `client` reports
 * arrivals by log id; resolves to the POST → arrival times (ms) and how many never arrived.
 */
async function fixedRate({ postUrl, rate, seconds, body, arrivals }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(postUrl);
  const sentAt = new Map();
  const latencies = [];
  arrivals.on = (logId, at) => {
    const t0 = sentAt.get(logId);
    if (t0 !== undefined) {
      latencies.push(at - t0);
      sentAt.delete(logId);
    }
  };
  const total = Math.round(rate * seconds);
  const statuses = {};
  const answered = [];
  const t0 = performance.now();
  for (let i = 0; i < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
    for (; i < due; i++) {
      const { logId, text } = body(i);
      sentAt.set(logId, performance.now());
      answered.push(
        new Promise((resolve) => {
          const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
            res.resume();
            res.on('end', () => resolve((statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1)));
          });
          req.on('error', () => resolve((statuses.error = (statuses.error ?? 0) + 1)));
          req.end(text);
        }),
      );
    }
    await sleep(1);
  }
  const sendSeconds = (performance.now() - t0) / 1000;
  await Promise.all(answered);
  await until('every event to arrive', async () => sentAt.size === 0, 10_000, 20).catch(() => {});
  agent.destroy();
  return { latencies, lost: sentAt.size, statuses, achievedRate: Math.round(total / sendSeconds) };
}

const latencyLine = (label, r) =>
  `${label.padEnd(44)} p50 ${pct(r.latencies, 50).toFixed(2).padStart(6)} ms   p99 ${pct(r.latencies, 99).toFixed(2).padStart(7)} ms   sent ${r.achievedRate}/s, not arrived ${r.lost}   ${JSON.stringify(r.statuses)}`;

const platform = await startEmbedded();
const barePort = await freePort();
const bare = await startProcess('bench/bare-relay.mjs', { BARE_PORT: String(barePort) }, `http://127.0.0.1:${barePort}/`);
const B = platform.base;
try {
  const tenant = await createTenant(B, 'bench');
  const user = await createUser(B, tenant, 'bench-user');
  // The records service learns the user from the users topic; wait until it accepts the token.
  await until('the records service to accept the mobile token', async () => {
    const r = await fetch(`${B}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [summary(0)] }) });
    await r.arrayBuffer();
    return r.status === 200;
  });
  for (let i = 1; i < 30; i++) await api(B, 'POST', '/mobile/records', user.mobile, { records: [summary(i)] });

  const url = `${B}/mobile/records?token=${user.mobile}`;
  // A fresh process runs its first few thousand requests on code the JIT has not optimized yet; those
  // are timed apart (and printed), so the figures below are the platform's steady state.
  let w = 0;
  const warmup = await load({ url, method: 'POST', total: WARMUP, concurrency: 16, body: () => JSON.stringify({ records: [measurement(w++, 'warm')] }) });
  let n = 0;
  const c0 = procSample(platform.pid);
  const single = await load({ url, method: 'POST', total: SINGLE, concurrency: 16, body: () => JSON.stringify({ records: [measurement(n++)] }) });
  const c1 = procSample(platform.pid);
  const batched = await load({
    url,
    method: 'POST',
    total: BATCHES,
    concurrency: 4,
    body: () => JSON.stringify({ records: Array.from({ length: 100 }, () => measurement(n++)) }),
  });
  const c2 = procSample(platform.pid);
  const query = await load({ url: `${B}/organizations/${tenant.organizationId}/users/bench-user/summaries?token=${tenant.token}&start_date=${day(0)}&end_date=${day(29)}`, total: 2000, concurrency: 16 });
  // The CPU figures above include publishing what those requests wrote; let it finish first.
  await settle(platform.pid);

  // Ingest → stream-client latency at a fixed rate, on the platform and on the bare relay.
  const stream = await api(B, 'POST', '/streams', tenant.token, { name: 'latency' });
  const platformArrivals = {};
  const client = await openSse(`${B}/streams/${stream.id}/connect?token=${tenant.token}`, (event, data, at) => {
    if (event === 'data') platformArrivals.on?.(JSON.parse(data).log_id, at);
  });
  await sleep(200);
  // Its count starts when it is ready (startCanary's first report): it times this window only.
  const canary = await startCanary();
  const live = await fixedRate({
    postUrl: url,
    rate: RATE,
    seconds: SECONDS,
    arrivals: platformArrivals,
    body: (i) => ({ logId: `l-${i}`, text: JSON.stringify({ records: [measurement(i, 'l')] }) }),
  });
  const liveHost = await canary.report();
  client.close();
  const bareArrivals = {};
  const bareClient = await openSse(`http://127.0.0.1:${barePort}/sse`, (event, data, at) => {
    if (event === 'data') bareArrivals.on?.(JSON.parse(data).records[0].log_id, at);
  });
  const bareLive = await fixedRate({
    postUrl: `http://127.0.0.1:${barePort}/mobile/records`,
    rate: RATE,
    seconds: SECONDS,
    arrivals: bareArrivals,
    body: (i) => ({ logId: `l-${i}`, text: JSON.stringify({ records: [measurement(i, 'l')] }) }),
  });
  const bareHost = await canary.report();
  canary.stop();
  bareClient.close();

  const rawSingle = rawSqliteRate(1, 5000);
  const rawBatched = rawSqliteRate(100, 50000);
  const cpu = (a, b, records) => ((b.cpuMs - a.cpuMs) / records).toFixed(3);
  console.log(`embedded runtime (${args.root ?? 'this checkout'}), platform in its own process, ${os.cpus().length} cores, through the gateway`);
  console.log(`reference: raw SQLite, 1 row per transaction: ${rawSingle} rows/s; 100 rows per transaction: ${rawBatched} rows/s`);
  console.log(fmt('warm-up, 1 record per request (not counted)', warmup), `→ ${warmup.rps} records/s`);
  console.log(fmt('ingest, 1 new record per request', single), `→ ${single.rps} records/s = ${(single.rps / rawSingle).toFixed(3)} of raw SQLite; platform CPU ${cpu(c0, c1, SINGLE)} ms per record`);
  console.log(
    fmt('ingest, 100 new records per request', batched),
    `→ ${batched.rps * 100} records/s = ${((batched.rps * 100) / rawBatched).toFixed(3)} of raw SQLite; platform CPU ${cpu(c1, c2, BATCHES * 100)} ms per record`,
  );
  console.log(fmt('GET 30 days of summaries (30 records)', query));
  console.log(`batching ratio: ${((batched.rps * 100) / single.rps).toFixed(1)}x the records/s of single-record requests`);
  console.log(latencyLine(`reference: bare relay, POST → SSE at ${RATE}/s`, bareLive));
  console.log(`  ${canaryLine(bareHost)}`);
  console.log(
    latencyLine(`ingest → stream client at ${RATE}/s, ${SECONDS} s`, live),
    `= ${(pct(live.latencies, 50) / pct(bareLive.latencies, 50)).toFixed(1)}x / ${(pct(live.latencies, 99) / pct(bareLive.latencies, 99)).toFixed(1)}x the bare relay's p50 / p99`,
  );
  console.log(`  ${canaryLine(liveHost)}`);
} finally {
  await bare.stop();
  await platform.stop();
}
process.exit(0);
