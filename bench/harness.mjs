/**
 * Shared pieces of the platform benchmarks: start the platform (embedded, one child process) or
 * the gateway and streams service on real servers (distributed, each its own process), make
 * tenants, ingest records, read SSE with timing, and sample a process's CPU and memory from /proc.
 * Any benchmark can run against another built checkout with `--root DIR` (e.g. the previous
 * commit) to measure before and after in the same run. Loopback only; every wait has a deadline.
 */
import { fork, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { freePort, root as ownRoot, startProcess } from './processes.mjs';

export const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]?.startsWith('--') ? 'true' : all[i + 1] ?? 'true']] : acc), []),
);
export const ROOT = path.resolve(args.root ?? ownRoot);
export const ADMIN = 'bench-admin-token-0123456789abcdef';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const mib = (bytes) => Number((bytes / 1024 / 1024).toFixed(1));
const requireFromRoot = createRequire(path.join(ROOT, 'package.json'));
/** A built package of the checkout under test, e.g. lib('bus'). */
export const lib = (name) => requireFromRoot(path.join(ROOT, 'libs', name, 'dist', 'index.js'));

export async function until(what, fn, ms = 60_000, every = 100) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(every);
  }
}

/** CPU time (ms, user + system) and resident memory (bytes) of a process, from /proc. */
export function procSample(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return { cpuMs: (ticks * 1000) / 100, rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024, at: performance.now() };
}

/** CPU % of one core used by `pid` over `ms`. */
export async function cpuPercent(pid, ms) {
  const a = procSample(pid);
  await sleep(ms);
  const b = procSample(pid);
  return (100 * (b.cpuMs - a.cpuMs)) / (b.at - a.at);
}

/** Waits until `pid` uses less than `pct` % CPU over a second (background work after a load). */
export const settle = (pid, pct = 15, ms = 120_000) => until(`process ${pid} to settle`, async () => (await cpuPercent(pid, 1000)) < pct, ms, 0);

export async function api(base, method, p, token, body) {
  const res = await fetch(`${base}${p}${p.includes('?') ? '&' : '?'}token=${token}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function createTenant(base, name) {
  const customer = await api(base, 'POST', '/admin/customers', ADMIN, { name });
  const org = await api(base, 'POST', `/admin/customers/${customer.id}/organizations`, ADMIN, { name: `${name} org` });
  const { token } = await api(base, 'POST', `/admin/customers/${customer.id}/tokens`, ADMIN, { rate_limit_per_hour: 10_000_000 });
  return { customerId: customer.id, organizationId: org.id, token };
}

/** A user with its mobile token, once the records service accepts it. */
export async function createUser(base, tenant, uid) {
  await api(base, 'POST', `/organizations/${tenant.organizationId}/users`, tenant.token, { uid, location: { timezone: 'Europe/Berlin', country_code: 'DE' } });
  const user = await api(base, 'GET', `/organizations/${tenant.organizationId}/users/${uid}`, tenant.token);
  return { uid, id: user.id, mobile: user.mobile.token };
}

let seq = 0;
export const measurement = (tag = 'm') => {
  const n = seq++;
  const at = new Date(Date.now() - (n % (20 * 24 * 60)) * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  return { type: 'measurement', source: { type: 'withings' }, log_id: `${tag}-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + (n % 50) / 10, origin: 'device' }] };
};

/** POSTs records through the mobile endpoint, `perRequest` at a time, `concurrency` requests in flight. */
export async function ingest(base, user, count, { perRequest = 100, concurrency = 4, tag = 'm' } = {}) {
  let left = count;
  const worker = async () => {
    while (left > 0) {
      const n = Math.min(perRequest, left);
      left -= n;
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`${base}/mobile/records?token=${user.mobile}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ records: Array.from({ length: n }, () => measurement(tag)) }),
        });
        await res.arrayBuffer();
        if (res.status === 200) break;
        // A user the records service has not learned yet answers 401 for a moment.
        if (attempt > 100) throw new Error(`ingest: ${res.status}`);
        await sleep(100);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * An SSE connection read with timing: `onEvent(name, data, receivedAt)` per event; resolves once
 * the response head arrived (rejects on a non-200).
 */
export function openSse(url, onEvent = () => {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`SSE ${url.replace(/token=[^&]+/, 'token=…')}: ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data = line.slice(6);
          }
          if (data) onEvent(event, data, performance.now());
        }
      });
      res.on('error', () => {});
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/**
 * Embedded: the whole platform in one child process. `BENCH_PLATFORM_NODE_ARGS` (e.g.
 * '--cpu-prof --cpu-prof-dir=DIR') goes to that process's node.
 */
export async function startEmbedded(env = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-'));
  const base = `http://127.0.0.1:${port}/v2`;
  const p = await startProcess(
    path.relative(ownRoot, path.join(ROOT, 'platform/dist/main.js')),
    // The public URL is where providers call back (webhooks): this very process.
    { WELLSTREAM_PORT: String(port), WELLSTREAM_DATA_DIR: dataDir, WELLSTREAM_ADMIN_TOKEN: ADMIN, WELLSTREAM_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    `http://127.0.0.1:${port}/health`,
    [200],
    (process.env.BENCH_PLATFORM_NODE_ARGS ?? '').split(' ').filter(Boolean),
    120_000,
  );
  return {
    base,
    pid: p.pid,
    streamsPid: p.pid,
    dataDir,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
    /** Stops the platform; its data dir goes too unless `keepData` (then the caller removes it). */
    stop: async ({ keepData = false } = {}) => {
      await p.stop();
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Real Kafka, MongoDB API and Redis from the project's own script, on loopback. */
export function startServers() {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-servers-'));
  const script = path.join(ownRoot, 'deploy/servers/servers.sh');
  const r = spawnSync('bash', [script, 'start', stateDir], { encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) throw new Error(`servers.sh start failed: ${r.stderr.slice(-2000)}`);
  const env = Object.fromEntries(
    fs.readFileSync(path.join(stateDir, 'servers.env'), 'utf8').split('\n').filter(Boolean).map((l) => l.split(/=(.*)/s).slice(0, 2)),
  );
  return {
    env: { WELLSTREAM_KAFKA_BROKERS: env.WELLSTREAM_TEST_KAFKA_BROKERS, WELLSTREAM_MONGO_URL: env.WELLSTREAM_TEST_MONGO_URL, WELLSTREAM_REDIS_URL: env.WELLSTREAM_TEST_REDIS_URL },
    /** `servers.sh kill|restart <state> kafka|redis|mongo`, without blocking this process (its clients keep reading). */
    run: (...cmd) =>
      new Promise((resolve, reject) => {
        const child = spawn('bash', [script, cmd[0], stateDir, ...cmd.slice(1)], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-2000)));
        const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve();
          else reject(new Error(`servers.sh ${cmd.join(' ')} failed (${code}): ${stderr}`));
        });
      }),
    stop: () => {
      spawnSync('bash', [script, 'stop', stateDir], { timeout: 60_000 });
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Distributed: the gateway and the streams service as their own processes on the real servers. */
/**
 * What every process of one distributed platform shares: the servers, a fresh topic and database
 * prefix (runs never meet), and the gateway's signing key (the gateway signs every request it
 * forwards; services believe nothing else; older checkouts ignore it).
 */
export function distributedEnv(serverEnv, env = {}) {
  const prefix = `bench_${randomUUID().slice(0, 8)}`;
  return {
    WELLSTREAM_MODE: 'distributed',
    ...serverEnv,
    WELLSTREAM_TOPIC_PREFIX: `${prefix}.`,
    WELLSTREAM_DB_PREFIX: prefix,
    WELLSTREAM_GATEWAY_KEYS: randomUUID() + randomUUID(),
    ...env,
  };
}

export async function startDistributed(serverEnv, env = {}) {
  const common = distributedEnv(serverEnv, env);
  const [gwPort, streamsPort] = [await freePort(), await freePort()];
  const streamsUrl = `http://127.0.0.1:${streamsPort}`;
  const rel = (p) => path.relative(ownRoot, path.join(ROOT, p));
  const streams = await startProcess(rel('services/streams/dist/main.js'), { ...common, WELLSTREAM_SERVICE_PORT: String(streamsPort) }, `${streamsUrl}/health`, [200], [], 120_000);
  const base = `http://127.0.0.1:${gwPort}/v2`;
  const urls = Object.fromEntries(['USERS', 'RECORDS', 'STREAMS', 'NOTIFICATIONS', 'RULES', 'SOURCES'].map((s) => [`WELLSTREAM_${s}_URL`, streamsUrl]));
  const gateway = await startProcess(rel('gateway/dist/main.js'), { ...common, ...urls, WELLSTREAM_PORT: String(gwPort), WELLSTREAM_ADMIN_TOKEN: ADMIN }, `${base}/streams`, [401], [], 120_000);
  // Checkouts from before the adapters left the package's main entry export them from index.js.
  const busAdapters = path.join(ROOT, 'libs', 'bus', 'dist', 'adapters.js');
  const { KafkaEventLog } = fs.existsSync(busAdapters) ? requireFromRoot(busAdapters) : lib('bus');
  const log = new KafkaEventLog({ brokers: serverEnv.WELLSTREAM_KAFKA_BROKERS.split(','), clientId: 'bench', prefix: common.WELLSTREAM_TOPIC_PREFIX, logger: quietLogger });
  const { customerEventsTopic } = lib('contracts');
  await log.ensureTopic(customerEventsTopic.spec);
  return {
    base,
    pid: streams.pid,
    streamsPid: streams.pid,
    metricsUrl: `${streamsUrl}/metrics`,
    log,
    stop: async () => {
      await log.close();
      await gateway.stop();
      await streams.stop();
    },
  };
}

/**
 * The physical reference of the SSE benchmarks: a bare node:http server, in a child process, that
 * answers every request with an idle SSE response and pokes it every 5 s. Resolves to its port and
 * pid, and a kill.
 */
export async function startBareSseServer() {
  const code = `
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': connected\\n\\n');
      const t = setInterval(() => res.write('event: poke\\ndata: {}\\n\\n'), 5000);
      res.on('close', () => clearInterval(t));
    });
    server.keepAliveTimeout = 0; server.headersTimeout = 0; server.requestTimeout = 0;
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { port, pid: child.pid, kill: () => child.kill('SIGKILL') };
}

export const quietLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

/**
 * Customer events as records would publish them (for distributed runs, straight onto Kafka); `record`
 * fixes the content (or gives it per event: `record(i)`), `userOf(i)` the user (default `user-<i mod users>`).
 */
export async function publishRecords(log, tenant, count, { users = 10, batch = 500, record, userOf } = {}) {
  const { customerEventsTopic, publishEvents } = lib('contracts');
  for (let done = 0; done < count; ) {
    const n = Math.min(batch, count - done);
    const events = Array.from({ length: n }, (_, i) => {
      const userId = userOf ? userOf(done + i) : `user-${(done + i) % users}`;
      const id = randomUUID();
      const at = new Date().toISOString();
      // A whole record as records would store it: the event catalog refuses partial payloads.
      const full = {
        id,
        version: '1.0',
        checksum: id,
        utc_offset: 0,
        offset_origin: 'source',
        deleted_at: null,
        user_notes: [],
        tags: [],
        ...(typeof record === 'function' ? record(done + i) : (record ?? measurement('k'))),
        user: { uid: userId, user_id: userId, organization_id: tenant.organizationId },
        created_at: at,
      };
      return { id, event_type: 'data', key: id, customer_id: tenant.customerId, organization_id: tenant.organizationId, user_id: userId, resource: 'measurement', start_time: full.start_time, created_at: at, payload: full };
    });
    await publishEvents(log, customerEventsTopic, events);
    done += n;
  }
}

/**
 * The process's event-loop delay p99 (ms) since the previous call: prom-client's default collector
 * resets its histogram on every scrape.
 */
export async function eventLoopP99(metricsUrl) {
  const text = await (await fetch(metricsUrl)).text();
  const m = /^nodejs_eventloop_lag_p99_seconds(?:{[^}]*})?\s+([\d.e+-]+)/m.exec(text);
  return m ? Number((Number(m[1]) * 1000).toFixed(1)) : null;
}

/**
 * An idle child process timing its own 2 ms timer (bench/host-canary.mjs). `report()` resolves to
 * its lateness since the previous report: { ticks, p99, max, over20 } in ms. A gap the canary saw
 * too was the host's, not the platform's.
 */
export async function startCanary() {
  const child = fork(path.join(ownRoot, 'bench/host-canary.mjs'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  const report = () =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send('report');
    });
  await report();
  return { report, stop: () => child.disconnect() };
}

/** One line for a canary report: the host's own stalls in the same window as a latency figure. */
export const canaryLine = (r) =>
  `host canary (an idle process's 2 ms timer), same window: late p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms, ${r.over20} gaps over 20 ms`;

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
