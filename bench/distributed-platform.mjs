/**
 * The distributed runtime for benchmarks: every service its own process (the built dist/main.js of
 * the checkout under test, `--root`), the gateway in front, on the real servers; `recordsReplicas`
 * records processes behind a round-robin proxy (bench/round-robin-proxy.mjs, as a Kubernetes
 * Service would be) when more than one. Also finds the servers' own processes (pid files of
 * deploy/servers/servers.sh) so their CPU can be read from /proc.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ADMIN, distributedEnv, ROOT } from './harness.mjs';
import { freePort, root as ownRoot, startProcess } from './processes.mjs';

const SERVICES = ['users', 'records', 'streams', 'notifications', 'rules', 'sources'];
const rel = (p) => path.relative(ownRoot, path.join(ROOT, p));

/**
 * The servers named by WELLSTREAM_TEST_KAFKA_BROKERS / _MONGO_URL / _REDIS_URL (and `stateDir`, for
 * their pids, when given), or started here with deploy/servers/servers.sh and stopped by `stop`.
 */
export function serversFor(stateDirArg) {
  const given = process.env.WELLSTREAM_TEST_KAFKA_BROKERS && process.env.WELLSTREAM_TEST_MONGO_URL && process.env.WELLSTREAM_TEST_REDIS_URL;
  const script = path.join(ownRoot, 'deploy/servers/servers.sh');
  let stateDir = stateDirArg;
  let own = false;
  let vars = process.env;
  if (!given) {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-servers-'));
    own = true;
    const r = spawnSync('bash', [script, 'start', stateDir], { encoding: 'utf8', timeout: 600_000 });
    if (r.status !== 0) throw new Error(`servers.sh start failed: ${r.stderr.slice(-2000)}`);
    vars = Object.fromEntries(fs.readFileSync(path.join(stateDir, 'servers.env'), 'utf8').split('\n').filter(Boolean).map((l) => l.split(/=(.*)/s).slice(0, 2)));
  }
  const pidOf = (name) => {
    try {
      return Number(fs.readFileSync(path.join(stateDir, `${name}.pid`), 'utf8').trim()) || undefined;
    } catch {
      return undefined;
    }
  };
  return {
    env: { WELLSTREAM_KAFKA_BROKERS: vars.WELLSTREAM_TEST_KAFKA_BROKERS, WELLSTREAM_MONGO_URL: vars.WELLSTREAM_TEST_MONGO_URL, WELLSTREAM_REDIS_URL: vars.WELLSTREAM_TEST_REDIS_URL },
    pids: stateDir ? { kafka: pidOf('kafka'), mongo: pidOf('mongo'), redis: pidOf('redis') } : {},
    stop: () => {
      if (!own) return;
      spawnSync('bash', [script, 'stop', stateDir], { timeout: 60_000 });
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * Ends a benchmark's run: drops the databases the platform made under its prefix (every
 * service's, and the benchmark's `raw`), closes the benchmark's driver, stops the platform and
 * the servers it started.
 */
export async function endRun({ mongo, platform, servers }) {
  for (const d of ['raw', 'gateway', ...SERVICES]) await mongo.db(`${platform.prefix}_${d}`).dropDatabase().catch(() => undefined);
  await mongo.close();
  await platform.stop();
  servers.stop();
}

/** Starts every service, `recordsReplicas` records processes, and the gateway; resolves once the gateway answers. */
/**
 * `BENCH_SERVICE_NODE_ARGS` (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: not allowed in
 * NODE_OPTIONS) go to the processes `BENCH_SERVICE_NODE_ARGS_FOR` names (comma-separated labels
 * such as `records-1,rules`), or to every one without it.
 */
function nodeArgsFor(label) {
  const only = (process.env.BENCH_SERVICE_NODE_ARGS_FOR ?? '').split(',').filter(Boolean);
  if (only.length && !only.includes(label)) return [];
  return (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

export async function startAllServices(serverEnv, { recordsReplicas = 1 } = {}) {
  const common = distributedEnv(serverEnv, { WELLSTREAM_SOURCE_TOKEN_KEY: randomUUID() + randomUUID() });
  const gwPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gwPort}`;
  const serviceEnv = (port) => ({ ...common, WELLSTREAM_SERVICE_HOST: '127.0.0.1', WELLSTREAM_SERVICE_PORT: String(port), WELLSTREAM_PUBLIC_URL: gatewayUrl });
  const started = [];
  const start = async (label, script, env, readyUrl, ok = [200]) => {
    const p = await startProcess(rel(script), env, readyUrl, ok, nodeArgsFor(label), 180_000);
    started.push({ label, ...p });
    return p;
  };
  const urls = {};
  const records = [];
  try {
    await Promise.all(
      SERVICES.filter((s) => s !== 'records').map(async (name) => {
        const port = await freePort();
        urls[name] = `http://127.0.0.1:${port}`;
        await start(name, `services/${name}/dist/main.js`, serviceEnv(port), `${urls[name]}/health`);
      }),
    );
    // Replicas start one after another, as a rolling deployment adds them.
    for (let i = 0; i < recordsReplicas; i++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      records.push({ url, ...(await start(`records-${i + 1}`, 'services/records/dist/main.js', serviceEnv(port), `${url}/health`)) });
    }
    urls.records = records[0].url;
    let proxy;
    if (recordsReplicas > 1) {
      const port = await freePort();
      urls.records = `http://127.0.0.1:${port}`;
      proxy = await startProcess('bench/round-robin-proxy.mjs', { PROXY_PORT: String(port), PROXY_UPSTREAMS: records.map((r) => r.url).join(',') }, `${urls.records}/health`);
      started.push({ label: 'proxy', ...proxy });
    }
    const routes = Object.fromEntries(SERVICES.map((s) => [`WELLSTREAM_${s.toUpperCase()}_URL`, urls[s]]));
    const gateway = await start('gateway', 'gateway/dist/main.js', { ...common, ...routes, WELLSTREAM_HOST: '127.0.0.1', WELLSTREAM_PORT: String(gwPort), WELLSTREAM_ADMIN_TOKEN: ADMIN }, `${gatewayUrl}/health`);
    return {
      prefix: common.WELLSTREAM_DB_PREFIX,
      base: `${gatewayUrl}/v2`,
      pids: {
        gateway: gateway.pid,
        ...(proxy ? { proxy: proxy.pid } : {}),
        ...Object.fromEntries(records.map((r, i) => [`records-${i + 1}`, r.pid])),
        ...Object.fromEntries(started.filter((s) => SERVICES.includes(s.label)).map((s) => [s.label, s.pid])),
      },
      recordsPids: records.map((r) => r.pid),
      /** Each service's own address (behind the gateway), for probes that skip it. */
      urls,
      stop: () => Promise.all(started.map((s) => s.stop())),
    };
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    throw err;
  }
}
