#!/usr/bin/env node
/**
 * Soak: the embedded platform under a steady mixed load for a long time, sampling memory and
 * latency, then checking that nothing was lost.
 *
 *   node bench/soak.mjs [--minutes 60] [--rate 30] [--customers 5] [--preload 0] [--slow-ms 0] [--root DIR]
 *
 * Load: `--customers` customers, each with one user, a stream with 2 connected clients, a push
 * target (a receiver in this process); `--rate` single-record ingestions per second spread over
 * them; every 30 s each customer reads REST once and runs a full replay. Each minute prints the
 * platform's RSS, ingest p50/p99, stream delivery p99 and replay time. At the end: every
 * acknowledged record must have reached its stream clients, the push receiver and a final replay.
 * `--preload N` first stores N records per customer (100 a request) and waits until the streams
 * delivered them, so a short run starts with the history an hour would have built (21,600 per
 * customer at the defaults): a quick look at the end state, not a substitute for the hour.
 * `--slow-ms N` prints every ingestion slower than N ms with when it was sent and when the last
 * periodic reads began (times in ms since this script started), to see what the slow ones follow.
 * Each minute's row also has the platform's event-loop delay p99 (from /metrics).
 *
 * Everything that parses whole histories (the replays, the REST reads) runs on a worker thread:
 * parsing a 20,000-record REST answer here held this thread for up to 400 ms every 30 s, and the
 * ingestions waiting behind it were counted as the platform's latency.
 * Verdict: after the first third (warm-up), RSS within 10 % of its post-warm-up level and ingest
 * p99 of the last minutes within 2× of the first post-warm-up minutes. Loopback only; bounded.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { api, args, createTenant, createUser, eventLoopP99, measurement, openSse, pct, procSample, sleep, startEmbedded, until } from './harness.mjs';

const MINUTES = Number(args.minutes ?? 60);
const RATE = Number(args.rate ?? 30);
const CUSTOMERS = Number(args.customers ?? 5);
const PRELOAD = Number(args.preload ?? 0);
const SLOW_MS = Number(args['slow-ms'] ?? 0);

const pushed = new Set();
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    try {
      for (const item of JSON.parse(body).items ?? []) pushed.add(item.log_id);
    } catch {
      /* not a batch */
    }
    res.writeHead(200).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/push`;

const platform = await startEmbedded({ WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: 'true', WELLSTREAM_PUSH_FLUSH_MS: '1000' });
const { base } = platform;
const customers = [];
for (let c = 0; c < CUSTOMERS; c++) {
  const t = await createTenant(base, `soak-${c}`);
  const user = await createUser(base, t, `soak-user-${c}`);
  await api(base, 'PUT', `/organizations/${t.organizationId}/notification_target`, t.token, { url: receiverUrl, secret: 'soak-secret-0123456789' });
  const stream = await api(base, 'POST', '/streams', t.token, { name: 'main' });
  const seen = new Set();
  const cust = { t, user, seen, acked: [], sentAt: new Map(), delivery: [] };
  for (let k = 0; k < 2; k++) {
    await openSse(`${base}/streams/${stream.id}/connect?token=${t.token}`, (event, data, at) => {
      if (event !== 'data') return;
      const logId = JSON.parse(data).log_id;
      if (!seen.has(logId) && cust.sentAt.has(logId)) cust.delivery.push(at - cust.sentAt.get(logId));
      seen.add(logId);
    });
  }
  customers.push(cust);
}

for (const cust of customers) {
  for (let left = PRELOAD; left > 0; left -= 100) {
    const records = Array.from({ length: Math.min(100, left) }, (_, k) => measurement(`pre${cust.t.organizationId}-${left}-${k}`));
    const res = await fetch(`${base}/mobile/records?token=${cust.user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records }) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`preload: ${res.status}`);
    cust.acked.push(...records.map((r) => r.log_id));
  }
}
if (PRELOAD > 0) {
  await until('preloaded records on the streams', async () => customers.every((c) => c.acked.every((id) => c.seen.has(id))), 600_000, 1000);
  console.log(JSON.stringify({ preloaded_per_customer: PRELOAD }));
}

/** Every acked record in a full replay of `cust` (the final check, on this thread: it needs the ids). */
async function replayCount(cust) {
  const ids = new Set();
  const t0 = performance.now();
  const sse = await until('replay slot', () => openSse(`${base}/replay?token=${cust.t.token}&event_types=data`, (e, d) => e === 'data' && ids.add(JSON.parse(d).log_id)), 30_000, 200);
  // The catch-up marker is a comment; the replay has caught up when every acked record is in.
  await until('replay caught up', async () => cust.acked.every((id) => ids.has(id)), 120_000, 50).catch(() => {});
  sse.close();
  return { ms: performance.now() - t0, ids };
}

// The periodic replays and REST reads run on a worker thread: parsing tens of thousands of records
// here would delay the ingestion timings this script measures and blame the platform for it.
const worker = new Worker(new URL('./replay-worker.mjs', import.meta.url), { argv: process.argv.slice(2) });
const pending = new Map();
let lastCall = 0;
worker.on('message', (m) => pending.get(m.id)?.(m.done));
/** Sends `message` to the worker; resolves with what it reports ({ms, got}) once done. */
const onWorker = (message) =>
  new Promise((resolve) => {
    const id = ++lastCall;
    pending.set(id, (done) => {
      pending.delete(id);
      resolve(done);
    });
    worker.postMessage({ id, ...message });
  });

/** A full replay of `cust`'s history; resolves with its duration once every record acked so far arrived. */
async function timedReplay(cust) {
  const expected = cust.acked.length;
  const done = await onWorker({ cmd: 'once', url: `${base}/replay?token=${cust.t.token}&event_types=data`, expected });
  if (done.got < expected) throw new Error(`replay got ${done.got} of ${expected}`);
  return done.ms;
}

/** The customer's REST read of its last 20 days; rejects unless it answered 200. */
async function restRead(cust) {
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);
  const path = `/organizations/${cust.t.organizationId}/users/${cust.user.uid}/measurements?start_date=${day(Date.now() - 20 * 86400_000)}&end_date=${day(Date.now())}`;
  const done = await onWorker({ cmd: 'get', base, path, token: cust.t.token });
  if (done.got < 0) throw new Error('REST read failed');
  return done.got;
}

const minutes = [];
let errors = 0;
const end = Date.now() + MINUTES * 60_000;
let minuteStart = Date.now();
let ingestLat = [];
let replayMs = [];
const everyMs = 1000 / RATE;
let next = performance.now();
let i = 0;
let lastPeriodic = Date.now();
let lastPeriodicAt = 0;
const inFlight = new Set();
while (Date.now() < end) {
  const cust = customers[i++ % customers.length];
  const rec = measurement(`soak${i}`);
  const t0 = performance.now();
  cust.sentAt.set(rec.log_id, t0);
  const p = fetch(`${base}/mobile/records?token=${cust.user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [rec] }) })
    .then(async (r) => {
      await r.arrayBuffer();
      if (r.status === 200) {
        cust.acked.push(rec.log_id);
        ingestLat.push(performance.now() - t0);
        if (SLOW_MS && performance.now() - t0 > SLOW_MS) console.log(JSON.stringify({ slow_ingest_ms: Math.round(performance.now() - t0), sent_at_ms: Math.round(t0), periodic_at_ms: Math.round(lastPeriodicAt) }));
      } else errors++;
    })
    .catch(() => errors++)
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
  if (Date.now() - lastPeriodic >= 30_000) {
    lastPeriodic = Date.now();
    lastPeriodicAt = performance.now();
    for (const c of customers) {
      void restRead(c).catch(() => errors++);
      void timedReplay(c).then((ms) => replayMs.push(ms), () => errors++);
    }
  }
  if (Date.now() - minuteStart >= 60_000) {
    const s = procSample(platform.pid);
    const loopP99 = await eventLoopP99(platform.metricsUrl).catch(() => null);
    const delivery = customers.flatMap((c) => c.delivery.splice(0));
    const row = { minute: minutes.length + 1, rss_mib: +(s.rss / 1048576).toFixed(1), ingest_p50_ms: +pct(ingestLat, 50).toFixed(1), ingest_p99_ms: +pct(ingestLat, 99).toFixed(1), stream_p99_ms: +pct(delivery, 99).toFixed(1), loop_p99_ms: loopP99, replay_ms_max: replayMs.length ? Math.round(Math.max(...replayMs)) : null, acked: customers.reduce((n, c) => n + c.acked.length, 0), errors };
    minutes.push(row);
    console.log(JSON.stringify(row));
    minuteStart = Date.now();
    ingestLat = [];
    replayMs = [];
  }
  next += everyMs;
  const wait = next - performance.now();
  if (wait > 0) await sleep(wait);
}
await Promise.all(inFlight);
await sleep(5000);
let lost = 0;
for (const c of customers) {
  const final = await replayCount(c);
  for (const id of c.acked) if (!c.seen.has(id) || !pushed.has(id) || !final.ids.has(id)) lost++;
}
const warm = minutes.slice(Math.floor(minutes.length / 3));
const baseRss = warm[0]?.rss_mib;
const maxDrift = warm.length ? Math.max(...warm.map((m) => Math.abs(m.rss_mib - baseRss) / baseRss)) : NaN;
const firstP99 = pct(warm.slice(0, 3).map((m) => m.ingest_p99_ms), 50);
const lastP99 = pct(warm.slice(-3).map((m) => m.ingest_p99_ms), 50);
console.log(
  JSON.stringify({
    minutes: MINUTES,
    acked: customers.reduce((n, c) => n + c.acked.length, 0),
    lost_on_any_channel: lost,
    errors,
    rss_mib_after_warmup: baseRss,
    rss_max_drift_after_warmup_percent: +(maxDrift * 100).toFixed(1),
    ingest_p99_ms_first_after_warmup: firstP99,
    ingest_p99_ms_last: lastP99,
    verdict: lost === 0 && maxDrift <= 0.1 && lastP99 <= 2 * firstP99 ? 'pass' : 'fail',
  }),
);
await worker.terminate();
await platform.stop();
receiver.close();
process.exit(0);
