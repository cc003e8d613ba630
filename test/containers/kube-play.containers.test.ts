/**
 * The Kubernetes manifests run: `podman kube play` of deploy/kubernetes (every deployable) on the
 * server containers of the compose file, then the platform answers through its gateway. What podman
 * 4.3 needs differently, done to a copy here and nowhere else:
 * - host networking with a loopback port each (no cluster network): the addresses and ports in the
 *   ConfigMaps and Secrets become 127.0.0.1:<free port>, one replica each, no `ports` mapping;
 * - Secret documents: podman 4.3 stores them in a form its own envFrom cannot read ("not valid
 *   JSON"), so each becomes a podman secret holding what envFrom reads (a JSON map of base64 values);
 * - Service and PodDisruptionBudget: podman has no cluster to route or disrupt; left out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, eventually, freePort, TEST_ADMIN_TOKEN, TEST_GATEWAY_KEY, TEST_SOURCE_TOKEN_KEY } from '@wellstream/testing';
import { ContainerPlatform, DEPLOYABLES, startContainerPlatform } from './container-platform';
import { ROOT, podman, run } from './podman';

jest.setTimeout(600_000);

const DIR = path.join(ROOT, 'deploy/kubernetes');
let servers: (ContainerPlatform & { ports: Record<string, number> }) | undefined;
let work = '';
const secrets: string[] = [];
const ports: Record<string, number> = {};
let played = '';

/** The settings a line `  KEY: value` of a ConfigMap or Secret gets instead of its cluster value. */
function settings(file: string, run: string): Record<string, string> {
  const own: Record<string, string> = file === 'gateway' ? { WELLSTREAM_HOST: '127.0.0.1', WELLSTREAM_PORT: String(ports.gateway) } : { WELLSTREAM_SERVICE_HOST: '127.0.0.1', WELLSTREAM_SERVICE_PORT: String(ports[file]) };
  return {
    WELLSTREAM_KAFKA_BROKERS: `127.0.0.1:${servers!.ports.KAFKA}`,
    WELLSTREAM_MONGO_URL: `mongodb://127.0.0.1:${servers!.ports.MONGO}`,
    WELLSTREAM_REDIS_URL: `redis://127.0.0.1:${servers!.ports.REDIS}`,
    WELLSTREAM_TOPIC_PREFIX: `${run}.`,
    WELLSTREAM_DB_PREFIX: run,
    WELLSTREAM_LOG_LEVEL: 'warn',
    WELLSTREAM_PUBLIC_URL: `http://127.0.0.1:${ports.gateway}`,
    WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY,
    WELLSTREAM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WELLSTREAM_SOURCE_TOKEN_KEY: TEST_SOURCE_TOKEN_KEY,
    ...Object.fromEntries(DEPLOYABLES.filter((d) => d !== 'gateway').map((d) => [`WELLSTREAM_${d.toUpperCase()}_URL`, `http://127.0.0.1:${ports[d]}`])),
    ...own,
  };
}

/** One manifest file as podman 4.3 plays it on this machine (see the header); creates its secrets. */
async function forPodman(file: string, run: string): Promise<string> {
  const values = settings(file, run);
  const docs = fs.readFileSync(path.join(DIR, `${file}.yaml`), 'utf8').split(/^---$/m);
  const kept: string[] = [];
  for (const doc of docs) {
    const kind = /^kind: (\w+)/m.exec(doc)?.[1];
    const text = doc
      .replace(/^( {2}(WELLSTREAM_\w+): ).*$/gm, (line, head: string, key: string) => (key in values ? `${head}"${values[key]}"` : line))
      .replace(/(secretRef: \{name: |^ {2}name: )(wellstream-[\w-]+)/gm, (m, head: string, name: string) => (kind === 'Secret' || m.startsWith('secretRef') ? `${head}${run}-${name}` : m))
      .replace(/^ {2}replicas: \d+$/m, '  replicas: 1')
      .replace(/^ *ports: \[\{name: http, containerPort: \d+\}\]\n/m, '');
    if (kind === 'Secret') {
      const name = /^ {2}name: ([\w-]+)/m.exec(text)![1];
      const data = Object.fromEntries([...text.split('stringData:')[1].matchAll(/^ {2}(\w+): "?([^"\n]*)"?$/gm)].map(([, k, v]) => [k, Buffer.from(v).toString('base64')]));
      const json = path.join(work, `${name}.json`);
      fs.writeFileSync(json, JSON.stringify(data));
      await podman(['secret', 'create', name, json]);
      secrets.push(name);
    } else if (kind !== 'Service' && kind !== 'PodDisruptionBudget' && kind) kept.push(text);
  }
  return kept.join('\n---\n');
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-kube-'));
  servers = await startContainerPlatform({ label: 'kube', only: ['mongo', 'kafka', 'redis'] });
  for (const d of DEPLOYABLES) ports[d] = await freePort();
  const runId = servers.project;
  const files = ['shared', ...DEPLOYABLES];
  played = path.join(work, 'wellstream.yaml');
  fs.writeFileSync(played, (await Promise.all(files.map((f) => forPodman(f, runId)))).join('\n---\n'));
  await podman(['kube', 'play', '--network', 'host', played], 180_000);
});

afterAll(async () => {
  if (played) await run('podman', ['kube', 'down', played], { timeoutMs: 120_000 });
  for (const s of secrets) await run('podman', ['secret', 'rm', s]);
  await servers?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
}, 240_000);

it('every deployable from deploy/kubernetes runs under podman kube play; the gateway answers', async () => {
  const gateway = `http://127.0.0.1:${ports.gateway}`;
  await eventually(async () => (await fetch(`${gateway}/health`, { signal: AbortSignal.timeout(3_000) }).catch(() => undefined))?.status === 200, 180_000, 500).catch(async (err) => {
    const ps = await run('podman', ['ps', '-a', '--format', '{{.Names}} {{.Status}}']);
    throw new Error(`the kube-played platform did not become healthy: ${String(err)}\n${ps.stdout}`);
  });
  for (const d of DEPLOYABLES.filter((x) => x !== 'gateway')) expect((await fetch(`http://127.0.0.1:${ports[d]}/health`)).status).toBe(200);
  const tenant = await createTenant(`${gateway}/v2`);
  const created = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid: 'kube-user' });
  expect(created.status).toBe(201);
});
