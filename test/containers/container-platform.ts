/**
 * The distributed platform in containers, as deploy/containers/up.sh starts it: docker-compose.yml
 * plus docker-compose.podman.yml under podman-compose, a project of its own (unique name, topic and
 * database prefixes, free loopback ports, fresh volumes), so a test run never meets another's data.
 * It can replace one service's container (SIGTERM, then a new container of the image) and says how
 * long the replacement took until the service and the public port answered /health with 200 again.
 * Callers use the edge's port (WS_PORT_GATEWAY); behind it run two gateways, gateway-a and gateway-b.
 */
import { eventually, freePort, TEST_ADMIN_TOKEN, TEST_GATEWAY_KEY, TEST_SOURCE_TOKEN_KEY, uniqueTestName } from '@wellstream/testing';
import { must, podman, run } from './podman';

/** One image and one Kubernetes manifest each (the edge has an image too, but no manifest: a Kubernetes Service does its job there). */
export const DEPLOYABLES = ['gateway', 'users', 'records', 'streams', 'notifications', 'rules', 'sources'] as const;
export type Deployable = (typeof DEPLOYABLES)[number];
/** The compose services: the gateway twice, behind the edge. */
export const APP_CONTAINERS = ['edge', 'gateway-a', 'gateway-b', 'users', 'records', 'streams', 'notifications', 'rules', 'sources'] as const;
export type AppContainer = (typeof APP_CONTAINERS)[number];
// GATEWAY is the public port (the edge's); GATEWAY_A and GATEWAY_B the two gateways'.
const PORTS = ['GATEWAY', 'GATEWAY_A', 'GATEWAY_B', 'USERS', 'RECORDS', 'STREAMS', 'NOTIFICATIONS', 'RULES', 'SOURCES', 'KAFKA', 'KAFKA_CONTROLLER', 'MONGO', 'MONGO_DEBUG', 'REDIS'] as const;
const COMPOSE_FILES = ['-f', 'docker-compose.yml', '-f', 'docker-compose.podman.yml'];

export interface ContainerPlatform {
  project: string;
  gatewayUrl: string;
  baseUrl: string;
  /** TestPlatform's names, so the acceptance suites run on it unchanged. */
  url: string;
  publicUrl: string;
  env: NodeJS.ProcessEnv;
  /** A container's own address (the edge's is gatewayUrl). */
  serviceUrl(name: AppContainer): string;
  container(name: AppContainer | 'kafka' | 'mongo' | 'redis'): string;
  /** SIGTERM (podman stop, 30 s grace), remove, start a new container; ms until healthy again. */
  replace(name: AppContainer): Promise<{ stopMs: number; totalMs: number; exit: string }>;
  logs(name: AppContainer | 'kafka' | 'mongo' | 'redis', tail?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `only`: start just these compose services (e.g. the servers, for `podman kube play`); then the
 * gateway's health is not awaited.
 */
export async function startContainerPlatform(options: { label: string; env?: NodeJS.ProcessEnv; readyMs?: number; only?: string[] }): Promise<ContainerPlatform & { ports: Record<string, number> }> {
  const name = uniqueTestName(options.label);
  const project = name.toLowerCase().replace(/_/g, '-');
  const ports: Record<string, number> = {};
  for (const p of PORTS) ports[p] = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(PORTS.map((p) => [`WS_PORT_${p}`, String(ports[p])])),
    WELLSTREAM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY,
    WELLSTREAM_SOURCE_TOKEN_KEY: TEST_SOURCE_TOKEN_KEY,
    WELLSTREAM_TOPIC_PREFIX: `${name}.`,
    WELLSTREAM_DB_PREFIX: name,
    WELLSTREAM_LOG_LEVEL: process.env.WELLSTREAM_CONTAINERS_LOG_LEVEL ?? 'warn',
    WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: 'true',
    ...options.env,
  };
  const compose = (args: string[], timeoutMs = 240_000) => must('podman-compose', ['-p', project, ...COMPOSE_FILES, ...args], { env, timeoutMs });
  const gatewayUrl = `http://127.0.0.1:${ports.GATEWAY}`;
  const serviceUrl = (svc: AppContainer) => (svc === 'edge' ? gatewayUrl : `http://127.0.0.1:${ports[svc.toUpperCase().replace('-', '_')]}`);
  const container = (svc: string) => `${project}_${svc}_1`;
  const healthy = async (url: string) => (await fetch(`${url}/health`, { signal: AbortSignal.timeout(3_000) }).catch(() => undefined))?.status === 200;
  const logs = async (svc: string, tail = 60) => {
    const r = await run('podman', ['logs', '--tail', String(tail), container(svc)]);
    return `${r.stdout}${r.stderr}`;
  };
  const describeAll = async () => {
    const ps = await run('podman', ['ps', '-a', '--filter', `label=io.podman.compose.project=${project}`, '--format', '{{.Names}} {{.Status}}']);
    const tails = await Promise.all(APP_CONTAINERS.map(async (d) => `--- ${d} ---\n${await logs(d, 15)}`));
    return `${ps.stdout}\n${tails.join('\n')}`;
  };
  const stop = async () => {
    await compose(['down', '-v', '-t', '20'], 180_000).catch(async () => {
      // Whatever compose could not remove goes by name, one container at a time.
      for (const svc of [...APP_CONTAINERS, 'kafka', 'mongo', 'redis']) await run('podman', ['rm', '-f', '-t', '5', container(svc)]);
    });
  };
  try {
    await compose(['up', '-d', ...(options.only ?? [])]);
    if (options.only) return { ...handle(), ports };
    await eventually(() => healthy(gatewayUrl), options.readyMs ?? 240_000, 500).catch(async (err) => {
      throw new Error(`the platform in containers did not become healthy: ${String(err)}\n${await describeAll()}`);
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { ...handle(), ports };

  function handle(): ContainerPlatform {
    return {
      project,
      gatewayUrl,
      baseUrl: `${gatewayUrl}/v2`,
      url: gatewayUrl,
      publicUrl: gatewayUrl,
      env,
      serviceUrl,
      container,
      logs,
      async replace(svc) {
        const t0 = Date.now();
        await podman(['stop', '-t', '30', container(svc)], 60_000);
        const stopMs = Date.now() - t0;
        const exit = (await podman(['inspect', '--format', '{{.State.ExitCode}}', container(svc)])).trim();
        await podman(['rm', container(svc)]);
        await compose(['up', '-d', '--no-deps', svc]);
        await eventually(async () => (await healthy(serviceUrl(svc))) && (await healthy(gatewayUrl)), 120_000, 200).catch(async (err) => {
          throw new Error(`${svc} did not come back: ${String(err)}\n${await logs(svc)}`);
        });
        return { stopMs, totalMs: Date.now() - t0, exit };
      },
      stop,
    };
  }
}
