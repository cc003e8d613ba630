#!/usr/bin/env node
/**
 * Ingestion on the distributed runtime against what its own store takes, same server, same run:
 *
 *   node bench/distributed-ingestion.bench.mjs [--seconds 20] [--history 30000] [--single 200] [--records-replicas 1] [--root DIR]
 *
 * Every service its own process (bench/distributed-platform.mjs) on Kafka, the MongoDB API and
 * Redis (deploy/servers/servers.sh, or the servers named by WELLSTREAM_TEST_*), through the gateway:
 * (a) 100-record `POST /v2/mobile/records` requests for 4 users, 2 in flight, for `--seconds`, every
 *     record of distinct content → records/s; reference: the raw driver's `insertMany` of the same
 *     documents (as the records service stored them) in batches of 100, 2 in flight, for as long:
 *     half of it before the platform's runs and half after (a);
 * (b) single-record requests one after another → p50, in raw `insertOne` round trips (sequential,
 *     the same documents);
 * (c) one user's 100-record request (p50 of 20, one after another) on an empty store and again
 *     after `--history` of that user's own records (`--history 0` leaves it out);
 * (d) `--records-replicas N` records processes behind a round-robin proxy; CPU of every process
 *     from /proc over (a), the records replicas' per 1,000 records/s.
 * A warm-up (another user, 10 × 100 records and 50 single) runs first and is not counted.
 * Loopback only; every loop is bounded by a count or a time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { args, createTenant, createUser, pct, procSample, settle, until } from './harness.mjs';
import { endRun, serversFor, startAllServices } from './distributed-platform.mjs';
import { root as ownRoot } from './processes.mjs';

const SECONDS = Number(args.seconds ?? 20);
const HISTORY = Number(args.history ?? 30_000);
const SINGLE = Number(args.single ?? 200);
const REPLICAS = Number(args['records-replicas'] ?? 1);
const USERS = 4;
const IN_FLIGHT = 2;
const PER_REQUEST = 100;
const PROBES = 20;
const require = createRequire(import.meta.url);
const { MongoClient } = require(require.resolve('mongoose', { paths: [path.join(ownRoot, 'libs/store')] })).mongo;

// Distinct content per user: its own minute, value and log id for every record (the same content
// under another log id is a same-source duplicate, answered without storing).
const counters = new Map();
const record = (user) => {
  const n = counters.get(user.uid) ?? 0;
  counters.set(user.uid, n + 1);
  const at = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
  return { type: 'measurement', source: { type: 'withings' }, log_id: `${user.uid}-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + (n % 100_000) / 1000, origin: 'device' }] };
};

/** 503s answered (with Retry-After) and sent again, per phase: counted, not hidden. */
let retried = 0;
/** One POST of `count` records of `user`; resolves to its time (ms) including any retries, throws on anything else but 200. */
async function post(base, user, count) {
  const body = JSON.stringify({ records: Array.from({ length: count }, () => record(user)) });
  const t0 = performance.now();
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    if (res.status === 200) return performance.now() - t0;
    if (res.status !== 503 || attempt >= 20) throw new Error(`POST /mobile/records: ${res.status} ${text.slice(0, 300)}`);
    retried++;
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
}

/** `workers` loops, each taking the next user in turn, until `seconds` or `totalRequests`; resolves to the request times. */
async function run(base, users, { workers, seconds = Infinity, totalRequests = Infinity, perRequest = PER_REQUEST }) {
  const times = [];
  const deadline = performance.now() + seconds * 1000;
  let sent = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (sent < totalRequests && performance.now() < deadline) {
        const user = users[sent++ % users.length];
        times.push(await post(base, user, perRequest));
      }
    }),
  );
  return { times, seconds: (performance.now() - t0) / 1000 };
}

/**
 * The records service's stored records: one collection, or on FerretDB one per user
 * (`records__p<hash>`, libs/store's partitioning).
 */
async function recordCollections(db) {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  return names.filter((n) => /^records($|__p)/.test(n)).map((n) => db.collection(n));
}
const sampleRecords = async (db, n) => {
  for (const c of await recordCollections(db)) {
    const docs = await c.find({}).limit(n).toArray();
    if (docs.length) return docs;
  }
  return [];
};
const countRecords = async (db, filter) => {
  let n = 0;
  for (const c of await recordCollections(db)) n += await c.countDocuments(filter);
  return n;
};

const cpuOf = (pids) => Object.fromEntries(Object.entries(pids).filter(([, pid]) => pid).map(([name, pid]) => [name, procSample(pid)]));
/** /proc/stat: the machine's busy and total jiffies. */
const machine = () => {
  const f = (/^cpu\s+(.*)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))[1]).split(' ').map(Number);
  return { busy: f[0] + f[1] + f[2] + f[5] + f[6] + f[7], total: f.slice(0, 8).reduce((a, b) => a + b, 0) };
};

const servers = serversFor(args['servers-state']);
const platform = await startAllServices(servers.env, { recordsReplicas: REPLICAS });
const mongo = await MongoClient.connect(servers.env.WELLSTREAM_MONGO_URL);
const B = platform.base;
try {
  const tenant = await createTenant(B, 'bench');
  const newUser = async (uid) => {
    const user = await createUser(B, tenant, uid);
    await until(`records to accept ${uid}`, async () => {
      const r = await fetch(`${B}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"records":[]}' });
      await r.arrayBuffer();
      return r.status !== 401;
    });
    return user;
  };
  const warm = await newUser('warm-up');
  const probe = await newUser('history');
  const loadUsers = [];
  for (let u = 0; u < USERS; u++) loadUsers.push(await newUser(`load-${u}`));

  const p50 = (r) => pct(r.times, 50);
  const f = (x, d = 2) => x.toFixed(d);
  console.log(`distributed runtime (${args.root ?? 'this checkout'}), every service its own process, ${REPLICAS} records process(es)${REPLICAS > 1 ? ' behind a round-robin proxy' : ''}, Kafka + FerretDB + Redis, ${os.cpus().length} cores, through the gateway; load average at start ${os.loadavg()[0].toFixed(1)}`);
  await run(B, [warm], { workers: IN_FLIGHT, totalRequests: 10 });
  await run(B, [warm], { workers: 1, totalRequests: 50, perRequest: 1 });

  // The raw reference, half before the platform's runs and half after (a): the server's speed
  // drifts over a run (its files grow), and one side alone moved the ratio by a fifth. The
  // documents are the warm-up user's, as the records service stored them.
  for (const pid of platform.recordsPids) await settle(pid);
  const db = mongo.db(`${platform.prefix}_records`);
  const sample = await sampleRecords(db, PER_REQUEST);
  if (sample.length === 0) throw new Error('no stored record to copy for the reference');
  const raw = mongo.db(`${platform.prefix}_raw`).collection('raw');
  let rawSeq = 0;
  const rawDoc = () => ({ ...sample[rawSeq % sample.length], _id: `raw-${rawSeq++}` });
  /** `IN_FLIGHT` loops of raw insertMany of 100 for `seconds`; resolves to the batches stored and the time taken. */
  const rawInsertMany = async (seconds) => {
    let batches = 0;
    const deadline = performance.now() + seconds * 1000;
    const r0 = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < deadline) {
          await raw.insertMany(Array.from({ length: PER_REQUEST }, rawDoc), { ordered: false });
          batches++;
        }
      }),
    );
    return { batches, seconds: (performance.now() - r0) / 1000 };
  };
  const rawBefore = await rawInsertMany(SECONDS / 2);

  // (c) before: one user's 100-record requests on an empty store (the warm-up user's 1,050 records aside).
  const empty = HISTORY > 0 ? await run(B, [probe], { workers: 1, totalRequests: PROBES }) : undefined;
  if (empty) console.log(`(c) one user's 100-record request, one after another, on an empty store: p50 ${f(p50(empty))} ms (the same after its history below)`);
  // (b) single-record requests, one after another.
  const single = await run(B, [warm], { workers: 1, totalRequests: SINGLE, perRequest: 1 });

  // (a) 4 users, 2 in flight, for SECONDS; CPU of every process and of the machine over it.
  const retriedBefore = retried;
  const before = { procs: cpuOf({ ...platform.pids, ...servers.pids }), machine: machine(), bench: process.cpuUsage() };
  const loaded = await run(B, loadUsers, { workers: IN_FLIGHT, seconds: SECONDS });
  const after = { procs: cpuOf({ ...platform.pids, ...servers.pids }), machine: machine(), bench: process.cpuUsage(before.bench) };
  const platformRate = (loaded.times.length * PER_REQUEST) / loaded.seconds;
  const cores = (name) => (after.procs[name].cpuMs - before.procs[name].cpuMs) / 1000 / loaded.seconds;
  const recordsCores = platform.recordsPids.map((_, i) => cores(`records-${i + 1}`));
  const recordsTotal = recordsCores.reduce((a, b) => a + b, 0);
  console.log(`(a) 100-record requests, ${USERS} users, ${IN_FLIGHT} in flight, ${f(loaded.seconds, 1)} s: ${Math.round(platformRate)} records/s (p50 ${f(p50(loaded))} ms, p99 ${f(pct(loaded.times, 99))} ms, ${loaded.times.length} requests, ${retried - retriedBefore} answered 503 and sent again)`);
  const machineBusy = (100 * (after.machine.busy - before.machine.busy)) / (after.machine.total - before.machine.total);
  console.log(`(d) CPU over (a), cores (1.00 = one core busy): ${Object.keys(after.procs).map((n) => `${n} ${f(cores(n))}`).join(', ')}, load generator ${f((after.bench.user + after.bench.system) / 1e6 / loaded.seconds)}; the machine ${f(machineBusy, 0)} % busy (every process on it, other work included)`);
  console.log(`    records: ${f(recordsTotal)} cores for ${Math.round(platformRate)} records/s = ${f(recordsTotal / (platformRate / 1000))} cores per 1,000 records/s (${REPLICAS} replica(s): ${recordsCores.map((c) => f(c)).join(', ')})`);
  for (const pid of platform.recordsPids) await settle(pid);

  const rawAfter = await rawInsertMany(SECONDS / 2);
  const rawRate = ((rawBefore.batches + rawAfter.batches) * PER_REQUEST) / (rawBefore.seconds + rawAfter.seconds);
  const half = (r) => Math.round((r.batches * PER_REQUEST) / r.seconds);
  console.log(`    reference: raw insertMany of the stored documents, 100 per call, ${IN_FLIGHT} in flight, same server, ${f(SECONDS / 2, 1)} s before (a) and as long after: ${Math.round(rawRate)} records/s (${half(rawBefore)} before, ${half(rawAfter)} after)`);
  console.log(`    ratio: ${f(platformRate / rawRate, 3)} of raw insertMany (target ≥ 0.25)`);
  const one = mongo.db(`${platform.prefix}_raw`).collection('raw_one');
  const oneTimes = [];
  for (let i = 0; i < 500; i++) {
    const t = performance.now();
    await one.insertOne(rawDoc());
    oneTimes.push(performance.now() - t);
  }
  const insertOneMs = pct(oneTimes, 50);
  console.log(`(b) 1-record requests, one after another: p50 ${f(p50(single))} ms, p99 ${f(pct(single.times, 99))} ms (${single.times.length} requests)`);
  console.log(`    reference: raw insertOne, one after another: p50 ${f(insertOneMs)} ms`);
  console.log(`    ratio: ${f(p50(single) / insertOneMs, 1)} raw insertOne round trips (target ≤ 5)`);

  if (empty) {
    // (c) after: the same user's own history grown to HISTORY records, then the same probe.
    const retriedFill = retried;
    const h0 = performance.now();
    await run(B, [probe], { workers: IN_FLIGHT, totalRequests: Math.ceil((HISTORY - PROBES * PER_REQUEST) / PER_REQUEST) });
    const fillSeconds = (performance.now() - h0) / 1000;
    for (const pid of platform.recordsPids) await settle(pid);
    const held = await countRecords(db, { user_id: probe.id });
    const full = await run(B, [probe], { workers: 1, totalRequests: PROBES });
    console.log(`(c) one user's 100-record request, one after another: empty store p50 ${f(p50(empty))} ms; after ${held} of that user's own records p50 ${f(p50(full))} ms (history stored at ${Math.round((HISTORY - PROBES * PER_REQUEST) / fillSeconds)} records/s, 2 in flight, ${retried - retriedFill} answered 503 and sent again)`);
    console.log(`    ratio: ${f(p50(full) / p50(empty))}x of empty (target ≤ 1.2x)`);
  }
} finally {
  await endRun({ mongo, platform, servers });
}
process.exit(0);
