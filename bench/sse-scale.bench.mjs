#!/usr/bin/env node
/**
 * Stream clients at scale: one streams process holding many idle SSE clients, on the
 * distributed runtime (every service its own process on Kafka, FerretDB and Redis, from
 * deploy/servers) and embedded, beside a bare node:http SSE server measured in the same run; then
 * records flowing to them; then a reconnect storm.
 *
 *   node bench/sse-scale.bench.mjs [--n 15000] [--streams 60] [--rate 500] [--seconds 20]
 *                                  [--runtime both|distributed|embedded] [--storm 5000] [--skip-storm] [--skip-fanout]
 *                                  [--warmup 5] [--idle-after-warmup 0] [--root DIR: another built checkout]
 *
 * idle:   N clients over `streams` streams (N/streams clients each, so a few streams with many
 *         clients), held open; the streams process's RSS growth per client against the bare
 *         server's, its CPU while they idle, and its TCP connections to the broker.
 * fan-out: with the N clients connected, `rate` records/s POSTed through the mobile endpoint
 *         (the real ingest path: records, its outbox, the customer's topic, the stream reader)
 *         for `seconds`; latency from the POST to each client's receipt, p50/p99. Measured after
 *         `warmup` seconds of the same flow (reported apart as warm_up: the first records after the
 *         processes started run cold code in the broker and every consumer); `--idle-after-warmup S`
 *         idles the platform S seconds in between, to show the warm-up is paid once, not per idle.
 * storm:  (distributed) two streams replicas; `storm` clients on the first, a few other customers'
 *         clients on the second, records flowing to both. The first is killed (SIGKILL): its
 *         clients reconnect to the second at once with Last-Event-ID, honouring 503 Retry-After.
 *         Reports how long until all are served again, that every user's events arrived in order
 *         with no gap, and the longest delivery gap the other customers' clients saw.
 * broker restart: (distributed, after fan-out, `--skip-broker-restart` to leave out) with the N
 *         clients still connected, Kafka is killed and restarted while records are published:
 *         how many clients the platform closed (none should be) and whether every acknowledged
 *         record reached its clients.
 *
 * Clients talk to the streams process directly with the gateway's signature (one gateway process
 * cannot hold 2 × 15,000 sockets within this machine's 20,000 open files). Loopback only; every
 * wait has a deadline.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ADMIN, ROOT, args, api, canaryLine, cpuPercent, createTenant, createUser, lib, pct, procSample, publishRecords, quietLogger, sleep, startBareSseServer, startEmbedded, startCanary, startServers, eventLoopP99, until } from './harness.mjs';
import { freePort } from './processes.mjs';
import { openSseClient, record } from './sse-client.mjs';

const N = Number(args.n ?? 15_000);
const STREAMS = Number(args.streams ?? 60);
const RATE = Number(args.rate ?? 500);
const SECONDS = Number(args.seconds ?? 20);
const WARMUP = Number(args.warmup ?? 5);
const STORM = Number(args.storm ?? 5000);
const RUNTIME = args.runtime ?? 'both';
const GATEWAY_KEY = randomUUID() + randomUUID();
const kib = (b) => Number((b / 1024).toFixed(1));

// ------------------------------------------------------------------ clients -----------------

/** A raw SSE client signed with this run's gateway key (bench/sse-client.mjs). */
const openClient = (port, streamId, opts) => openSseClient(port, streamId, { gatewayKey: GATEWAY_KEY, ...opts });

async function openMany(n, open) {
  const out = [];
  for (let i = 0; i < n; i += 200) out.push(...(await Promise.all(Array.from({ length: Math.min(200, n - i) }, (_, j) => open(i + j)))));
  return out;
}

// ------------------------------------------------------------------ reference ---------------

async function bare(n) {
  const { port, pid, kill } = await startBareSseServer();
  try {
    await sleep(1000);
    const before = procSample(pid).rss;
    const clients = await openMany(n, (i) => openClient(port, 'x', { signed: false, token: 'x', i }));
    await sleep(3000);
    const open = procSample(pid).rss;
    const cpu = await cpuPercent(pid, 10_000);
    for (const c of clients) c.socket?.destroy();
    return { kibPerClient: kib((open - before) / n), cpuPercentPerClient: cpu / n };
  } finally {
    kill();
  }
}

// ------------------------------------------------------------------ platforms ---------------

const SERVICE_NAMES = ['users', 'records', 'streams', 'notifications', 'rules', 'sources'];
const LIMITS = {
  WELLSTREAM_STREAM_MAX_MEMBERS: String(Math.max(5, Math.ceil(N / STREAMS), Math.ceil(STORM / 20))),
  WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER: String(Math.max(N, STORM)),
  WELLSTREAM_GATEWAY_KEYS: GATEWAY_KEY,
};

const spawned = new Set();
/** When the second streams replica was started (to place the storm in its profile). */
let secondStartedAt = 0;
process.on('exit', () => {
  for (const c of spawned) c.kill('SIGKILL');
});

function spawnService(script, env, label) {
  // As in production: warnings and errors logged; MALLOC_ARENA_MAX passes through (glibc's arenas are part of what a process holds).
  const passed = process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {};
  // BENCH_STREAMS_NODE_ARGS (e.g. "--trace-gc --cpu-prof --cpu-prof-dir=/tmp/prof"): node flags for
  // the streams processes (BENCH_NODE_ARGS_FOR=rules,notifications: for those instead), their
  // stdout to /tmp/bench-<label>.out, to see where their time goes.
  const profiled = (process.env.BENCH_NODE_ARGS_FOR ?? 'streams').split(',').some((name) => label.startsWith(name));
  const extra = profiled && process.env.BENCH_STREAMS_NODE_ARGS ? process.env.BENCH_STREAMS_NODE_ARGS.split(' ') : [];
  const stdout = extra.length ? fs.openSync(`/tmp/bench-${label}.out`, 'w') : 'ignore';
  const child = spawn(process.execPath, [...extra, path.join(ROOT, script)], { env: { PATH: process.env.PATH, WELLSTREAM_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', ...passed, ...env }, stdio: ['ignore', stdout, 'pipe'] });
  let tail = '';
  child.stderr.on('data', (d) => (tail = (tail + d).slice(-4000)));
  spawned.add(child);
  child.label = label;
  child.tail = () => tail;
  return child;
}
const healthy = (url, what) => until(what, async () => (await fetch(`${url}/health`).catch(() => undefined))?.status === 200, 120_000, 250);

async function startDistributedPlatform(servers) {
  const prefix = `bench_${randomUUID().slice(0, 8)}`;
  const common = { WELLSTREAM_MODE: 'distributed', ...servers.env, WELLSTREAM_TOPIC_PREFIX: `${prefix}.`, WELLSTREAM_DB_PREFIX: prefix, WELLSTREAM_SOURCE_TOKEN_KEY: randomUUID() + randomUUID(), ...LIMITS };
  const ports = Object.fromEntries(await Promise.all([...SERVICE_NAMES, 'gateway', 'streams2'].map(async (n) => [n, await freePort()])));
  const url = (n) => `http://127.0.0.1:${ports[n]}`;
  const gatewayUrl = url('gateway');
  const serviceEnv = (name) => ({ ...common, WELLSTREAM_SERVICE_HOST: '127.0.0.1', WELLSTREAM_SERVICE_PORT: String(ports[name]), WELLSTREAM_PUBLIC_URL: gatewayUrl });
  const children = new Map();
  for (const name of SERVICE_NAMES) children.set(name, spawnService(`services/${name}/dist/main.js`, serviceEnv(name), name));
  const routes = Object.fromEntries(SERVICE_NAMES.map((n) => [`WELLSTREAM_${n.toUpperCase()}_URL`, url(n)]));
  children.set('gateway', spawnService('gateway/dist/main.js', { ...common, ...routes, WELLSTREAM_HOST: '127.0.0.1', WELLSTREAM_PORT: String(ports.gateway), WELLSTREAM_ADMIN_TOKEN: ADMIN }, 'gateway'));
  await healthy(gatewayUrl, 'the distributed platform').catch((err) => {
    throw new Error(`${err}\n${[...children.values()].map((c) => `--- ${c.label}: ${c.tail()}`).join('\n')}`);
  });
  const { KafkaEventLog } = await import(path.join(ROOT, 'libs/bus/dist/adapters.js'));
  const log = new KafkaEventLog({ brokers: servers.env.WELLSTREAM_KAFKA_BROKERS.split(','), clientId: 'bench', prefix: `${prefix}.`, logger: quietLogger });
  // The log learns from the spec that the topic is tenant-scoped (each event also goes to its customer's topic).
  await log.ensureTopic(lib('contracts').customerEventsTopic.spec);
  return {
    log,
    logSettings: { brokers: servers.env.WELLSTREAM_KAFKA_BROKERS.split(','), prefix: `${prefix}.` },
    base: `${gatewayUrl}/v2`,
    streamsPort: ports.streams,
    metricsUrl: `${url('streams')}/metrics`,
    streamsPid: () => children.get('streams').pid,
    kafkaPort: Number(servers.env.WELLSTREAM_KAFKA_BROKERS.split(':').pop()),
    /** A second streams replica on the same servers (the storm). */
    async startSecondStreams() {
      secondStartedAt = Date.now();
      children.set('streams2', spawnService('services/streams/dist/main.js', serviceEnv('streams2'), 'streams2'));
      await healthy(url('streams2'), 'the second streams replica');
      return { port: ports.streams2, pid: children.get('streams2').pid };
    },
    kill: (name) => children.get(name)?.kill('SIGKILL'),
    tails: () => [...children.values()].map((c) => `--- ${c.label}: ${c.tail().slice(-1500)}`).join('\n'),
    stop: async () => {
      await log.close();
      for (const c of children.values()) c.kill('SIGTERM');
      // A profiled streams process (BENCH_STREAMS_NODE_ARGS) writes its profile as it exits.
      await sleep(process.env.BENCH_STREAMS_NODE_ARGS ? 15_000 : 2000);
      for (const c of children.values()) c.kill('SIGKILL');
    },
  };
}

async function startEmbeddedPlatform() {
  const p = await startEmbedded({ ...LIMITS, WELLSTREAM_REPLAY_MAX_PER_CUSTOMER: '10' });
  return { base: p.base, streamsPort: Number(new URL(p.base).port), streamsPid: () => p.pid, metricsUrl: p.metricsUrl, viaGateway: true, stop: () => p.stop() };
}

/** The V8 heap of a process as its /metrics says (used and held), MiB. */
async function heapOf(metricsUrl) {
  if (!metricsUrl) return null;
  const text = await (await fetch(metricsUrl)).text().catch(() => '');
  const sum = (name) => [...text.matchAll(new RegExp(`^${name}(?:{[^}]*})?\\s+([\\d.e+]+)`, 'gm'))].reduce((a, m) => a + Number(m[1]), 0);
  return { used: Number((sum('nodejs_heap_size_used_bytes') / 1048576).toFixed(1)), total: Number((sum('nodejs_heap_size_total_bytes') / 1048576).toFixed(1)) };
}

/**
 * CPU of every process on the machine over a window, grouped (this bench, each platform process by
 * its label, the broker, FerretDB, Redis, the rest), in % of one core, beside the machine's total:
 * on two cores the platform's latency is often a wait for a core, and this says who held them.
 */
function cpuByProcess(platformPid) {
  const labels = new Map([...spawned].map((c) => [c.pid, c.label]));
  if (!labels.has(platformPid)) labels.set(platformPid, 'platform');
  const group = (pid) => {
    if (pid === process.pid) return 'bench';
    if (labels.has(pid)) return labels.get(pid);
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (cmd.includes('kafka.Kafka')) return 'kafka';
    if (/ferretdb/i.test(cmd)) return 'ferretdb';
    if (cmd.includes('redis-server')) return 'redis';
    return 'other';
  };
  const sample = () => {
    const out = new Map();
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const pid = Number(name);
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = group(pid);
        out.set(key, (out.get(key) ?? 0) + Number(f[11]) + Number(f[12]));
      } catch {
        /* the process ended meanwhile */
      }
    }
    return out;
  };
  const t0 = performance.now();
  const before = sample();
  return () => {
    const after = sample();
    const seconds = (performance.now() - t0) / 1000;
    const pct = {};
    let total = 0;
    for (const [k, v] of after) {
      const used = ((v - (before.get(k) ?? 0)) / 100 / seconds) * 100;
      if (used >= 0.5) pct[k] = Number(used.toFixed(1));
      total += Math.max(0, used);
    }
    return { ...Object.fromEntries(Object.entries(pct).sort((a, b) => b[1] - a[1])), all: Number(total.toFixed(1)) };
  };
}

/** Broker connections of a process: its TCP sockets whose remote port is the broker's. */
function brokerConnections(pid, kafkaPort) {
  const inodes = new Set();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' }).toString();
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(m[1]);
  }
  let n = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const remotePort = parseInt(f[2].split(':')[1], 16);
      if (remotePort === kafkaPort && inodes.has(f[9])) n++;
    }
  }
  return n;
}

// ------------------------------------------------------------------ scenarios ---------------

/** Customers with 2 streams each and 2 users each, N clients spread evenly over the streams. */
async function tenantsAndStreams(platform, streams) {
  const customers = [];
  for (let c = 0; c * 2 < streams; c++) {
    const t = await createTenant(platform.base, `scale-${c}`);
    const ids = [];
    for (let s = 0; s < 2 && c * 2 + s < streams; s++) ids.push((await api(platform.base, 'POST', '/streams', t.token, { name: `s${s}` })).id);
    const users = [];
    for (let u = 0; u < 2; u++) users.push(await createUser(platform.base, t, `u${u}`));
    customers.push({ ...t, streams: ids, users });
  }
  return customers;
}

/**
 * `rate` events/s for `seconds` published straight onto the customers' topics as records would
 * publish them (distributed: the records service on FerretDB is not what this bench measures, and
 * on this machine it takes far fewer than 500 records/s), round-robin over customers.
 */
async function publishFlow(log, customers, rate, seconds, tag = 'lat') {
  const perTick = Math.max(1, Math.round(rate / 10));
  const t0 = Date.now();
  let n = 0;
  const sends = [];
  for (let tick = 0; tick < seconds * 10; tick++) {
    const c = customers[tick % customers.length];
    const t = Date.now();
    sends.push(publishRecords(log, c, perTick, { users: 2, batch: perTick, record: record(`${tag}-${t}-${tick}`) }).then(() => {
      postTimes.push(Date.now() - t);
      ackedAt.set(String(t), Date.now());
    }));
    n += perTick;
    const next = t0 + (tick + 1) * 100;
    if (next > Date.now()) await sleep(next - Date.now());
  }
  await Promise.all(sends);
  return n;
}

/** How long each ingestion request took (ms), to tell ingestion's share of a latency from delivery's. */
const postTimes = [];
/** Distributed: when the broker acknowledged each tick's publish (keyed by its send time), to split a latency into append and delivery. */
const ackedAt = new Map();

/** POSTs records for a user, retrying 503 after its Retry-After (a user the records service is still learning). */
async function post(base, user, records) {
  for (let attempt = 0; ; attempt++) {
    const t0 = Date.now();
    const res = await fetch(`${base}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records }) });
    const text = await res.text();
    postTimes.push(Date.now() - t0);
    if (res.status === 200) return;
    if (res.status !== 503 || attempt > 20) throw new Error(`ingest: ${res.status} ${text.slice(0, 200)}`);
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
}

/** `rate` records/s for `seconds`, POSTed through the mobile endpoint in 10 requests a second, round-robin over users. */
async function flow(base, users, rate, seconds, tag) {
  const perTick = Math.max(1, Math.round(rate / 10));
  let n = 0;
  const t0 = Date.now();
  const posts = [];
  for (let tick = 0; tick < seconds * 10; tick++) {
    const u = users[tick % users.length];
    const records = Array.from({ length: perTick }, () => record(`${tag}-${Date.now()}-${n++}`));
    posts.push(post(base, u, records));
    const next = t0 + (tick + 1) * 100;
    if (next > Date.now()) await sleep(next - Date.now());
  }
  await Promise.all(posts);
  return n;
}

async function idleAndFanOut(runtime, platform, reference) {
  const customers = await tenantsAndStreams(platform, STREAMS);
  const streams = customers.flatMap((c) => c.streams.map((id) => ({ id, c })));
  const latencies = [];
  const receipts = [];
  const warmLatencies = [];
  const onData = (mark, _id, at) => {
    if (mark?.startsWith('br-')) return brokerMarks.received(mark, at);
    const m = /^(lat|warm)-(\d+)-/.exec(mark ?? '');
    if (!m) return;
    if (m[1] === 'warm') return warmLatencies.push([Number(m[2]), at - Number(m[2])]);
    latencies.push(at - Number(m[2]));
    receipts.push([m[2], at]);
  };
  await sleep(2000);
  const pid = platform.streamsPid();
  const before = procSample(pid).rss;
  const t0 = Date.now();
  const clients = await openMany(N, (i) => {
    const { id, c } = streams[i % streams.length];
    return openClient(platform.streamsPort, id, { customerId: c.customerId, token: c.token, signed: !platform.viaGateway, onData, i });
  });
  const refused = clients.filter((c) => c.status !== 200).length;
  const openSeconds = (Date.now() - t0) / 1000;
  // Idle means idle: long enough for the garbage of opening them to be collected and given back.
  await sleep(Number(args.settle ?? 30) * 1000);
  const open = procSample(pid).rss;
  const heap = await heapOf(platform.metricsUrl);
  const cpu = await cpuPercent(pid, 10_000);
  const broker = platform.kafkaPort ? brokerConnections(pid, platform.kafkaPort) : null;
  const perClient = (open - before) / N;
  // Warm-up: the first records after the processes started find cold code (not yet compiled by the
  // JVM's and V8's JITs) in the broker and every consumer; reported on their own, not mixed into
  // the steady state's figures.
  const warmSent = args['skip-fanout'] || !WARMUP ? 0 : platform.log ? await publishFlow(platform.log, customers, RATE, WARMUP, 'warm') : await flow(platform.base, customers.flatMap((c) => c.users), RATE, WARMUP, 'warm');
  for (const waitFrom = Date.now(); warmSent && warmLatencies.length < warmSent * 2 && Date.now() - waitFrom < 30_000; ) await sleep(250);
  const warmUp = warmSent ? warmUpReport(warmLatencies, warmSent) : undefined;
  // --idle-after-warmup S: let the platform idle again first (does the warm-up have to be paid again?).
  if (warmSent && args['idle-after-warmup']) await sleep(Number(args['idle-after-warmup']) * 1000);
  postTimes.length = 0;
  ackedAt.clear();
  const canary = await startCanary();
  const benchLoop = monitorEventLoopDelay({ resolution: 5 });
  benchLoop.enable();
  await eventLoopP99(platform.metricsUrl).catch(() => null);
  const cpuWindow = cpuByProcess(pid);
  const sent = args['skip-fanout'] ? 0 : platform.log ? await publishFlow(platform.log, customers, RATE, SECONDS) : await flow(platform.base, customers.flatMap((c) => c.users), RATE, SECONDS, 'lat');
  // Every record reaches one client of each of its customer's two streams: wait for all (bounded).
  const waitFrom = Date.now();
  while (sent && latencies.length < sent * 2 && Date.now() - waitFrom < 30_000) await sleep(250);
  benchLoop.disable();
  const cpuDuringFanOut = cpuWindow();
  const streamsLoopP99 = await eventLoopP99(platform.metricsUrl).catch(() => null);
  const host = await canary.report();
  canary.stop();
  // Distributed: receipt after the broker's acknowledgement (negative: the client had it before the publisher heard back).
  const afterAck = receipts.filter(([t]) => ackedAt.has(t)).map(([t, at]) => at - ackedAt.get(t));
  // Each publish tick (records sent in the same millisecond): its acknowledgement and receipts.
  // The slowest few go into the report (is a p99 a spell or spread out?); BENCH_TICKS=<file> dumps all.
  const byTick = new Map();
  for (const [t, at] of receipts) (byTick.get(t) ?? byTick.set(t, []).get(t)).push(at - Number(t));
  const ticks = [...byTick].map(([t, l]) => ({ t: Number(t), ack: ackedAt.has(t) ? ackedAt.get(t) - Number(t) : null, min: Math.min(...l), max: Math.max(...l), n: l.length }));
  if (process.env.BENCH_TICKS) fs.writeFileSync(process.env.BENCH_TICKS, JSON.stringify(ticks));
  const flowStart = Math.min(...ticks.map((x) => x.t));
  const slowestTicks = [...ticks].sort((x, y) => y.max - x.max).slice(0, 5).map((x) => ({ at_s: Number(((x.t - flowStart) / 1000).toFixed(1)), ...(x.ack !== null ? { acknowledged_ms: x.ack } : {}), first_ms: x.min, last_ms: x.max }));
  const brokerRestart = platform.servers && !args['skip-broker-restart'] ? await restartBrokerUnder(platform, customers, clients) : undefined;
  for (const c of clients) c.socket?.destroy();
  return {
    runtime,
    clients: N,
    streams: streams.length,
    refused,
    open_seconds: Number(openSeconds.toFixed(1)),
    streams_process_rss_mib: { before: Number((before / 1048576).toFixed(1)), with_clients: Number((open / 1048576).toFixed(1)) },
    kib_per_client: kib(perClient),
    v8_heap_mib: heap,
    bare_kib_per_client: reference.kibPerClient,
    ratio_to_bare: Number((kib(perClient) / reference.kibPerClient).toFixed(2)),
    idle_cpu_percent_per_client: Number((cpu / N).toFixed(5)),
    bare_idle_cpu_percent_per_client: Number(reference.cpuPercentPerClient.toFixed(5)),
    broker_connections: broker,
    ...(warmUp ? { warm_up: warmUp } : {}),
    fan_out: {
      records_per_second: RATE,
      seconds: SECONDS,
      records: sent,
      deliveries: latencies.length,
      missing_deliveries: sent * 2 - latencies.length,
      p50_ms: pct(latencies, 50),
      p99_ms: pct(latencies, 99),
      path: platform.log ? 'published onto the customer topic → client' : 'POST /v2/mobile/records → client',
      // How long the POST (embedded) or the publish to the broker (distributed) took.
      ingest_request_p50_ms: pct(postTimes, 50),
      ingest_request_p99_ms: pct(postTimes, 99),
      ...(afterAck.length ? { after_broker_ack_p50_ms: pct(afterAck, 50), after_broker_ack_p99_ms: pct(afterAck, 99) } : {}),
      slowest_ticks: slowestTicks,
      streams_event_loop_p99_ms: streamsLoopP99,
      bench_event_loop_p99_ms: Number((benchLoop.percentile(99) / 1e6).toFixed(1)),
      host: canaryLine(host),
      cpu_percent_of_a_core: cpuDuringFanOut,
    },
    ...(brokerRestart ? { broker_restart: brokerRestart } : {}),
  };
}

/** The warm-up's figures, with the p99 of each second's records (how fast the cold start fades). */
function warmUpReport(sentAndLatency, sent) {
  const from = Math.min(...sentAndLatency.map(([t]) => t));
  const bySecond = Array.from({ length: WARMUP }, (_, k) => pct(sentAndLatency.filter(([t]) => Math.floor((t - from) / 1000) === k).map(([, l]) => l), 99));
  const all = sentAndLatency.map(([, l]) => l);
  return { seconds: WARMUP, records: sent, deliveries: all.length, p50_ms: pct(all, 50), p99_ms: pct(all, 99), p99_ms_by_second: bySecond, ingest_request_p99_ms: pct(postTimes, 99) };
}

/** The broker-restart phase's records: the receipts of each (one client of each of its customer's two streams). */
const brokerMarks = {
  receipts: new Map(),
  received(mark, at) {
    const r = this.receipts.get(mark);
    if (r) r.push(at);
  },
};

/**
 * Distributed: with every client still connected, the broker is killed (SIGKILL) and restarted on
 * the same port and data while records keep being published. No client may be closed (the
 * readers rejoin their groups by themselves), and every publish the broker acknowledged reaches
 * one client of each of its customer's two streams.
 */
async function restartBrokerUnder(platform, customers, clients) {
  let closedByServer = 0;
  const open = clients.filter((c) => c.socket);
  for (const c of open) c.socket.once('close', () => closedByServer++);
  const perTick = 5;
  let running = true;
  let tick = 0;
  const acked = [];
  let failed = 0;
  const publishing = (async () => {
    const sends = [];
    while (running) {
      const c = customers[tick % customers.length];
      const marks = Array.from({ length: perTick }, (_, k) => `br-${tick}-${k}`);
      for (const m of marks) brokerMarks.receipts.set(m, []);
      const t = tick++;
      const sentAt = Date.now();
      sends.push(
        publishRecords(platform.log, c, perTick, { users: 2, batch: perTick, record: (k) => record(marks[k]) }).then(
          () => acked.push(...marks.map((m) => ({ mark: m, at: Date.now(), sentAt, tick: t }))),
          () => (failed += perTick),
        ),
      );
      await sleep(100);
    }
    await Promise.all(sends);
  })();
  await sleep(2000);
  const killedAt = Date.now();
  await platform.servers.run('kill', 'kafka');
  await sleep(5000);
  const restartFrom = Date.now();
  await platform.servers.run('restart', 'kafka');
  const restartedAt = Date.now();
  await sleep(10_000);
  running = false;
  await publishing;
  const expected = () => acked.filter((a) => brokerMarks.receipts.get(a.mark).length < 2);
  const waitFrom = Date.now();
  while (expected().length && Date.now() - waitFrom < 120_000) await sleep(500);
  const firstReceipt = (a) => Math.min(...brokerMarks.receipts.get(a.mark));
  const delivered = acked.filter((a) => brokerMarks.receipts.get(a.mark).length);
  const afterRestart = delivered.map((a) => firstReceipt(a) - restartedAt);
  // The records sent while the broker was away: when the last of them reached a client.
  const heldBack = delivered.filter((a) => a.sentAt >= killedAt && a.sentAt < restartedAt).map((a) => firstReceipt(a) - restartedAt);
  return {
    clients: open.length,
    clients_closed_by_the_platform: closedByServer,
    broker_down_ms: restartedAt - killedAt,
    broker_start_ms: restartedAt - restartFrom,
    published: tick * perTick,
    acknowledged: acked.length,
    not_acknowledged: failed,
    acknowledged_not_delivered_to_both_streams: expected().length,
    // Each such batch: its publish tick, when it was acknowledged (from the kill), and its receipts.
    missing_batches: [...new Map(expected().map((a) => [a.tick, { tick: a.tick, customer: customers[a.tick % customers.length].customerId, sent_ms_after_kill: a.sentAt - killedAt, acked_ms_after_kill: a.at - killedAt, receipts: brokerMarks.receipts.get(a.mark).length }])).values()].slice(0, 10),
    first_delivery_after_restart_ms: afterRestart.some((x) => x >= 0) ? Math.min(...afterRestart.filter((x) => x >= 0)) : null,
    sent_while_down: heldBack.length,
    // When the last record sent while the broker was away reached a client, from the broker's restart.
    sent_while_down_all_delivered_after_restart_ms: heldBack.length ? Math.max(...heldBack) : null,
  };
}

/**
 * The storm: STORM clients on replica 1 (10 customers × 2 streams), 5 other customers with one
 * client each on replica 2; records flow to all; replica 1 is killed; its clients reconnect to 2.
 */
async function storm(platform) {
  const second = await platform.startSecondStreams();
  const stormCustomers = await tenantsAndStreams(platform, 20);
  const others = await tenantsAndStreams(platform, 10);
  // Per user: the sequence numbers received (any client), in receipt order; per client: last id.
  const seen = new Map();
  // Each storm customer has two streams: every event reaches one client of each, so order and gaps are per stream and user.
  const perConnection = new Map();
  const recordSeen = (mark, stream, conn) => {
    const m = /^st-(\S+)-(\d+)$/.exec(mark ?? '');
    if (!m) return;
    const key = `${stream}|${m[1]}`;
    if (!seen.has(key)) seen.set(key, []);
    seen.get(key).push(Number(m[2]));
    const ck = `${conn}|${m[1]}`;
    if (!perConnection.has(ck)) perConnection.set(ck, []);
    perConnection.get(ck).push(Number(m[2]));
  };
  let connections = 0;
  const perStream = Math.ceil(STORM / 20);
  const refusals = {};
  const stormClients = [];
  const openStormClient = async (stream, c, port, i, lastEventId) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const state = { lastEventId, i };
      const conn = ++connections;
      const r = await openClient(port, stream, {
        customerId: c.customerId,
        signed: true,
        lastEventId,
        i,
        onData: (mark, id) => {
          state.lastEventId = id;
          recordSeen(mark, stream, conn);
        },
      }).catch((err) => ({ status: 0, retryAfter: 1, body: String(err?.message ?? err) }));
      if (r.status === 200) return Object.assign(state, { socket: r.socket, stream, c, attempts: attempt + 1 });
      // 503: too many connecting at once; 422: the member limit still counts the killed replica's
      // clients until its counts expire (one poke interval). Both say when to come back.
      // 0: the connection failed (reset or refused); a client tries again after a second, and it is counted.
      if (r.status !== 503 && r.status !== 422 && r.status !== 0) throw new Error(`storm client got ${r.status}: ${r.body ?? ''}`);
      const kind = r.status === 0 ? `connection failed (${r.body})` : r.status;
      refusals[kind] = (refusals[kind] ?? 0) + 1;
      await sleep(r.retryAfter * 1000);
    }
    throw new Error('a storm client was refused 50 times');
  };
  let i = 0;
  for (const c of stormCustomers) for (const s of c.streams) for (let k = 0; k < perStream && stormClients.length < STORM; k++) stormClients.push(openStormClient(s, c, platform.streamsPort, i++));
  const first = await Promise.all(stormClients);
  // The other customers run in a thread of their own (storm-bystanders.worker.mjs says why).
  const bystanders = new Worker(new URL('./storm-bystanders.worker.mjs', import.meta.url), {
    workerData: { port: second.port, gatewayKey: GATEWAY_KEY, ...platform.logSettings, customers: others.map((c) => ({ customerId: c.customerId, organizationId: c.organizationId, streams: c.streams })) },
  });
  await new Promise((resolve, reject) => bystanders.once('message', resolve).once('error', reject));
  // Sequence-numbered events per storm user, and a steady flow to the other customers, published
  // straight onto the customers' topics as records would (what is measured is the streams side:
  // the records service on FerretDB answers far slower than this on this machine).
  let running = true;
  const users = stormCustomers.flatMap((c) => c.users.map((u) => ({ ...u, c, key: `${c.customerId.slice(0, 8)}.${u.uid}`, seq: 0 })));
  const stormFlow = Promise.all(
    users.map(async (u) => {
      while (running) {
        const base = u.seq;
        await publishRecords(platform.log, u.c, 5, { batch: 5, userOf: () => u.uid, record: (i) => record(`st-${u.key}-${base + i + 1}`) });
        u.seq += 5;
        await sleep(100);
      }
    }),
  );
  await sleep(8000);
  const canary = await startCanary();
  const benchLoop = monitorEventLoopDelay({ resolution: 5 });
  await eventLoopP99(`http://127.0.0.1:${second.port}/metrics`).catch(() => null);
  benchLoop.enable();
  const killedAt = Date.now();
  platform.kill('streams');
  if (process.env.BENCH_STREAMS_NODE_ARGS) console.error(`storm: replica 1 killed ${((killedAt - secondStartedAt) / 1000).toFixed(1)} s after replica 2 was started`);
  await Promise.all(first.map((c) => new Promise((resolve) => (c.socket.destroyed ? resolve() : c.socket.once('close', resolve)))));
  const reconnected = await Promise.all(first.map((c) => openStormClient(c.stream, c.c, second.port, c.i, c.lastEventId)));
  const allServedSeconds = (Date.now() - killedAt) / 1000;
  // From here on a client the survivor closes reconnects with its Last-Event-ID, as a real one
  // would (a reader that could not join its group closes its clients; a slow one is dropped).
  let stormOver = false;
  let closedByServer = 0;
  const keepConnected = (holder) =>
    holder.current.socket.once('close', async () => {
      if (stormOver) return;
      closedByServer++;
      const was = holder.current;
      const again = await openStormClient(was.stream, was.c, second.port, was.i, was.lastEventId).catch(() => undefined);
      if (!again) return;
      holder.current = again;
      if (stormOver) again.socket.destroy();
      else keepConnected(holder);
    });
  const holders = reconnected.map((current) => ({ current }));
  for (const holder of holders) keepConnected(holder);
  await sleep(Math.max(0, killedAt + 30_000 - Date.now())); // the window the other customers' figures cover
  benchLoop.disable();
  const survivorLoopP99 = await eventLoopP99(`http://127.0.0.1:${second.port}/metrics`).catch(() => null);
  const host = await canary.report();
  canary.stop();
  await sleep(Math.max(0, allServedSeconds * 1000 + 25_000 - (Date.now() - killedAt))); // records keep flowing while the dead member's partitions return to the group
  running = false;
  await stormFlow;
  const { times: otherTimes, loopMaxMs: bystandersLoopMaxMs } = await new Promise((resolve, reject) => {
    bystanders.once('message', resolve).once('error', reject);
    bystanders.postMessage('stop');
  });
  await bystanders.terminate();
  const streamsOfUser = (u) => u.c.streams;
  const missing = () => {
    let n = 0;
    for (const u of users) for (const stream of streamsOfUser(u)) {
      const uniq = new Set(seen.get(`${stream}|${u.key}`) ?? []);
      for (let s = 1; s <= u.seq; s++) if (!uniq.has(s)) n++;
    }
    return n;
  };
  const waitStart = Date.now();
  while (missing() > 0 && Date.now() - waitStart < 60_000) await sleep(500);
  const lastArrivalSeconds = (Date.now() - waitStart) / 1000;
  let duplicates = 0;
  for (const u of users) for (const stream of streamsOfUser(u)) {
    const got = seen.get(`${stream}|${u.key}`) ?? [];
    duplicates += got.length - new Set(got).size;
  }
  // In order: on each connection, each user's numbers only go up (across connections there is no
  // common order to judge: a hand-over moves a user from one socket to another).
  let outOfOrder = 0;
  for (const list of perConnection.values()) for (let k = 1; k < list.length; k++) if (list[k] <= list[k - 1]) outOfOrder++;
  // The other customers' delivery: latency from the publish to the client, before the kill and in the
  // 30 s after it, and the longest time without a delivery after the kill (records flow every 20 ms).
  const before = otherTimes.filter((t) => t.at < killedAt).map((t) => t.at - t.sent);
  const afterKill = otherTimes.filter((t) => t.at >= killedAt && t.at < killedAt + 30_000);
  const arrivals = afterKill.map((t) => t.at).sort((a, b) => a - b);
  let otherGap = 0;
  for (let k = 1; k < arrivals.length; k++) otherGap = Math.max(otherGap, arrivals[k] - arrivals[k - 1]);
  // The same for the publishing side (this process): a gap there is the bench's, not the platform's.
  const sends = afterKill.map((t) => t.sent).sort((a, b) => a - b);
  let publishGap = 0;
  for (let k = 1; k < sends.length; k++) publishGap = Math.max(publishGap, sends[k] - sends[k - 1]);
  stormOver = true;
  for (const h of holders) h.current.socket?.destroy();
  return {
    storm_clients: first.length,
    all_served_again_seconds: Number(allServedSeconds.toFixed(1)),
    clients_refused_at_least_once: reconnected.filter((c) => c.attempts > 1).length,
    closed_by_the_survivor_later: closedByServer,
    refusals_by_status: refusals,
    users: users.length,
    records_per_user: Math.round(users.reduce((a, u) => a + u.seq, 0) / users.length),
    missing_events: missing(),
    seconds_until_the_last_arrived_after_the_flow_stopped: Number(lastArrivalSeconds.toFixed(1)),
    out_of_order: outOfOrder,
    duplicates,
    other_customers: {
      latency_before_p99_ms: pct(before, 99),
      latency_after_kill_p99_ms: pct(afterKill.map((t) => t.at - t.sent), 99),
      latency_after_kill_max_ms: Math.max(...afterKill.map((t) => t.at - t.sent)),
      longest_gap_between_deliveries_ms: otherGap,
      longest_gap_between_their_publishes_ms: publishGap,
      survivor_event_loop_p99_ms: survivorLoopP99,
      // The storm clients' thread (a second at a time is theirs, not the platform's) and the other customers' own thread.
      storm_clients_event_loop_max_ms: Number((benchLoop.max / 1e6).toFixed(0)),
      other_customers_event_loop_max_ms: bystandersLoopMaxMs,
      host: canaryLine(host),
    },
  };
}

// ------------------------------------------------------------------ main --------------------

const reference = await bare(N);
console.log(JSON.stringify({ bare_node_http: { clients: N, kib_per_client: reference.kibPerClient, idle_cpu_percent_per_client: Number(reference.cpuPercentPerClient.toFixed(5)) } }));
if (RUNTIME !== 'embedded') {
  const servers = startServers();
  try {
    const platform = Object.assign(await startDistributedPlatform(servers), { servers });
    if (args.debug) process.on('exit', () => console.error(platform.tails()));
    try {
      console.log(JSON.stringify(await idleAndFanOut('distributed', platform, reference), null, 2));
      if (!args['skip-storm']) console.log(JSON.stringify({ storm: await storm(platform) }, null, 2));
    } catch (err) {
      console.error(platform.tails());
      throw err;
    } finally {
      await platform.stop();
    }
  } finally {
    servers.stop();
  }
}
if (RUNTIME !== 'distributed') {
  const platform = await startEmbeddedPlatform();
  try {
    console.log(JSON.stringify(await idleAndFanOut('embedded', platform, reference), null, 2));
  } finally {
    await platform.stop();
  }
}
process.exit(0);
