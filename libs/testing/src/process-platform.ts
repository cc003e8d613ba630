/**
 * The distributed platform as separate Node processes (the built dist/main.js files, as in a
 * container): the gateway and every service on loopback ports of their own, on the real servers
 * named by the environment. A process can be killed (SIGKILL, as a crash) and started again on the
 * same port. Every process is stopped by its own pid at the end.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { eventually } from './api-client';
import { RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';
import { TEST_GATEWAY_KEY, TEST_SOURCE_TOKEN_KEY } from './signed-headers';
import { TEST_ADMIN_TOKEN } from './test-tokens';

const ROOT = path.resolve(__dirname, '../../..');
export const SERVICE_NAMES = ['users', 'records', 'streams', 'notifications', 'rules', 'sources'] as const;
export type ProcessName = (typeof SERVICE_NAMES)[number] | 'gateway';

export interface PlatformProcess {
  name: ProcessName;
  child: ChildProcess;
  output: string[];
}

/**
 * Ports handed out are picked below Linux's ephemeral range (32768–60999), where no `listen(0)`
 * lands: between this pick and the moment its process (or container) binds it, any process on the
 * machine asking the kernel for a free port could otherwise get the same one and answer in its
 * place (likely why the kube-play test once got a 404 for creating a user, which the users service
 * never answers for it). Never the same port twice in one process, either, though each was free
 * again when handed out.
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_767;
const handedOut = new Set<number>();

function listensFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = PICK_FROM + Math.floor(Math.random() * (PICK_TO - PICK_FROM + 1));
    if (handedOut.has(port) || !(await listensFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${PICK_FROM} and ${PICK_TO} after 200 tries`);
}

function spawnMain(name: ProcessName, env: NodeJS.ProcessEnv): PlatformProcess {
  const script = name === 'gateway' ? 'gateway/dist/main.js' : `services/${name}/dist/main.js`;
  const main = path.join(ROOT, script);
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: build first (npm test builds; or tsc -b tsconfig.build.json)`);
  const child = spawn(process.execPath, [main], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { name, child, output };
}

const exited = (p: PlatformProcess) => p.child.exitCode !== null || p.child.signalCode !== null;

/** SIGTERM (graceful stop), then SIGKILL after a bound. */
export async function stopProcess(p: PlatformProcess): Promise<void> {
  if (exited(p)) return;
  const done = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
  await done;
  clearTimeout(timer);
}

export interface ProcessPlatform {
  gatewayUrl: string;
  baseUrl: string;
  processes: Map<ProcessName, PlatformProcess>;
  /** Where one process listens, e.g. to call a service without the gateway. */
  url(name: ProcessName): string;
  /** The last output of every process, for failure messages. */
  describe(): string;
  /** SIGKILL, as a crash; resolves once the process is gone. */
  kill(name: ProcessName): Promise<void>;
  /** Starts a stopped or killed process again on its port and waits until it answers /health. */
  restart(name: ProcessName): Promise<void>;
  stop(): Promise<void>;
  /** With `recordsReplicas` > 1: the records processes beyond the first, and the proxy the gateway reaches them all through. */
  recordsReplicas: PlatformProcess[];
  recordsProxy?: RoundRobinProxy;
}

export interface ProcessPlatformOptions {
  readyMs?: number;
  serviceEnv?: NodeJS.ProcessEnv;
  gatewayEnv?: NodeJS.ProcessEnv;
  /** How many records processes (one consumer group); more than one sit behind a round-robin proxy. */
  recordsReplicas?: number;
}

export async function startProcessPlatform(settings: NodeJS.ProcessEnv, options: ProcessPlatformOptions = {}): Promise<ProcessPlatform> {
  const readyMs = options.readyMs ?? 90_000;
  // Every process shares the key the gateway signs its caller assertions with.
  const common: NodeJS.ProcessEnv = { WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY, WELLSTREAM_SOURCE_TOKEN_KEY: TEST_SOURCE_TOKEN_KEY, ...settings };
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const ports = new Map<ProcessName, number>([['gateway', gatewayPort]]);
  for (const name of SERVICE_NAMES) ports.set(name, await freePort());
  const url = (name: ProcessName) => `http://127.0.0.1:${ports.get(name)}`;
  const replicaPorts: number[] = [];
  for (let i = 1; i < (options.recordsReplicas ?? 1); i++) replicaPorts.push(await freePort());
  const recordsProxy = replicaPorts.length ? await startRoundRobinProxy([url('records'), ...replicaPorts.map((p) => `http://127.0.0.1:${p}`)]) : undefined;
  const envOf = (name: ProcessName, port = ports.get(name)): NodeJS.ProcessEnv =>
    name === 'gateway'
      ? {
          ...common,
          WELLSTREAM_HOST: '127.0.0.1',
          WELLSTREAM_PORT: String(gatewayPort),
          WELLSTREAM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
          WELLSTREAM_USERS_URL: url('users'),
          WELLSTREAM_RECORDS_URL: recordsProxy?.url ?? url('records'),
          WELLSTREAM_STREAMS_URL: url('streams'),
          WELLSTREAM_NOTIFICATIONS_URL: url('notifications'),
          WELLSTREAM_RULES_URL: url('rules'),
          WELLSTREAM_SOURCES_URL: url('sources'),
          ...options.gatewayEnv,
        }
      : {
          ...common,
          WELLSTREAM_SERVICE_HOST: '127.0.0.1',
          WELLSTREAM_SERVICE_PORT: String(port),
          WELLSTREAM_PUBLIC_URL: gatewayUrl,
          WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: 'true',
          ...options.serviceEnv,
        };
  const processes = new Map<ProcessName, PlatformProcess>();
  const recordsReplicas: PlatformProcess[] = [];
  const describe = () =>
    [...processes.values(), ...recordsReplicas].map((p) => `--- ${p.name} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'}) ---\n${p.output.join('').slice(-3000)}`).join('\n');
  const waitHealthy = (target: string, what: string) =>
    eventually(
      async () => {
        const dead = [...processes.values(), ...recordsReplicas].find(exited);
        if (dead) throw new Error(`${dead.name} exited with ${dead.child.exitCode ?? dead.child.signalCode}`);
        const res = await fetch(`${target}/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
        return res?.status === 200;
      },
      readyMs,
      250,
    ).catch((err) => {
      throw new Error(`${what} did not become healthy: ${String(err)}\n${describe()}`);
    });
  const stopAll = () => Promise.all([...processes.values(), ...recordsReplicas].map(stopProcess)).then(() => recordsProxy?.close());
  try {
    for (const name of [...SERVICE_NAMES, 'gateway' as const]) processes.set(name, spawnMain(name, envOf(name)));
    for (const port of replicaPorts) recordsReplicas.push(spawnMain('records', envOf('records', port)));
    await waitHealthy(gatewayUrl, 'the distributed platform');
    for (const port of replicaPorts) await waitHealthy(`http://127.0.0.1:${port}`, 'a records replica');
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    gatewayUrl,
    baseUrl: `${gatewayUrl}/v2`,
    processes,
    url,
    describe,
    async kill(name) {
      const p = processes.get(name)!;
      if (exited(p)) return;
      const done = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
      p.child.kill('SIGKILL');
      await done;
    },
    async restart(name) {
      await stopProcess(processes.get(name)!);
      processes.set(name, spawnMain(name, envOf(name)));
      await waitHealthy(url(name), name);
    },
    stop: stopAll,
    recordsReplicas,
    recordsProxy,
  };
}
