/**
 * Distributed mode end to end: the gateway and every service as its own Node process (the built
 * dist/main.js files, as in a container), on the real Kafka, MongoDB API and Redis, isolated by
 * unique prefixes. Drives the operator API and the users API over HTTP and checks the answers have
 * the same shapes as in embedded mode. Every process is killed at the end, and on failure.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ApiClient, distributedEnv, eventually, TEST_ADMIN_TOKEN, TEST_GATEWAY_KEY } from '@wellstream/testing';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '..');
const SERVICES = ['users', 'records', 'streams', 'notifications', 'rules'] as const;
const READY_MS = 90_000;

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function start(name: string, script: string, env: NodeJS.ProcessEnv): Proc {
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

/** SIGTERM (graceful stop), then SIGKILL after a bound. */
async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

describe('distributed mode, one process per deployable', () => {
  const procs: Proc[] = [];
  let gatewayUrl = '';
  const serviceUrls: Record<string, string> = {};
  let admin: ApiClient;

  const describeFailure = () =>
    procs.map((p) => `--- ${p.name} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'}) ---\n${p.output.join('').slice(-3000)}`).join('\n');

  beforeAll(async () => {
    const infra = distributedEnv('e2e');
    const common: NodeJS.ProcessEnv = {
      ...infra,
      WELLSTREAM_LOG_LEVEL: process.env.WELLSTREAM_E2E_LOG_LEVEL ?? 'warn',
      WELLSTREAM_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-e2e-')),
      WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY,
    };
    const gatewayPort = await freePort();
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const urls: Record<string, string> = {};
    const t0 = Date.now();
    try {
      for (const name of SERVICES) {
        const port = await freePort();
        urls[name] = `http://127.0.0.1:${port}`;
        serviceUrls[name] = urls[name];
        procs.push(
          start(name, `services/${name}/dist/main.js`, {
            ...common,
            WELLSTREAM_SERVICE_HOST: '127.0.0.1',
            WELLSTREAM_SERVICE_PORT: String(port),
            WELLSTREAM_PUBLIC_URL: gatewayUrl,
            WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: 'true',
          }),
        );
      }
      procs.push(
        start('gateway', 'gateway/dist/main.js', {
          ...common,
          WELLSTREAM_HOST: '127.0.0.1',
          WELLSTREAM_PORT: String(gatewayPort),
          WELLSTREAM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
          WELLSTREAM_USERS_URL: urls.users,
          WELLSTREAM_RECORDS_URL: urls.records,
          WELLSTREAM_STREAMS_URL: urls.streams,
          WELLSTREAM_NOTIFICATIONS_URL: urls.notifications,
          WELLSTREAM_RULES_URL: urls.rules,
        }),
      );
      await eventually(async () => {
        const dead = procs.find((p) => p.child.exitCode !== null);
        if (dead) throw new Error(`${dead.name} exited with ${dead.child.exitCode}`);
        const res = await fetch(`${gatewayUrl}/health`, { signal: AbortSignal.timeout(2_000) });
        return res.status === 200;
      }, READY_MS, 250).catch((err) => {
        throw new Error(`the distributed platform did not become healthy: ${String(err)}\n${describeFailure()}`);
      });
    } catch (err) {
      await Promise.all(procs.map(stop));
      throw err;
    }
    admin = new ApiClient(`${gatewayUrl}/v2`, TEST_ADMIN_TOKEN);
    process.stdout.write(`[e2e] 6 processes healthy after ${Date.now() - t0} ms\n`);
  }, READY_MS + 30_000);

  afterAll(async () => {
    const t0 = Date.now();
    await Promise.all(procs.map(stop));
    process.stdout.write(`[e2e] all processes stopped in ${Date.now() - t0} ms\n`);
  }, 60_000);

  it('answers /health with {"status":"ok"} once every service is up', async () => {
    const res = await fetch(`${gatewayUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    for (const p of procs) expect(p.child.exitCode).toBeNull();
  });

  it('creates a customer, an organization and a token with the embedded-mode shapes', async () => {
    const c = await admin.post('/admin/customers', { name: 'Distributed Co' });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ id: expect.any(String), name: 'Distributed Co', created_at: expect.any(String) });
    const o = await admin.post(`/admin/customers/${c.body.id}/organizations`, { name: 'Clinic' });
    expect(o.status).toBe(201);
    expect(o.body).toMatchObject({ id: expect.any(String), customer_id: c.body.id, name: 'Clinic', created_at: expect.any(String) });
    const t = await admin.post(`/admin/customers/${c.body.id}/tokens`, { rate_limit_per_hour: 50 });
    expect(t.status).toBe(201);
    expect(t.body).toEqual({ token: expect.any(String), customer_id: c.body.id, rate_limit_per_hour: 50, created_at: expect.any(String) });

    // The users service (its own process, its own database) through the gateway; rate limits in Redis.
    const api = new ApiClient(`${gatewayUrl}/v2`, t.body.token);
    const uid = `e2e-${Date.now().toString(36)}`;
    const created = await api.post(`/organizations/${o.body.id}/users`, { uid, location: { timezone: 'Europe/Berlin' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['created_at', 'id', 'location', 'marketplace', 'sources', 'uid', 'updated_at']);
    expect(created.body.marketplace.url).toBe(`${gatewayUrl}/v2/marketplace/${created.body.marketplace.token}`);
    expect(created.headers.get('x-ratelimit-limit')).toBe('50');

    const got = await api.get(`/organizations/${o.body.id}/users/${uid}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ uid, id: created.body.id, mobile: { token: expect.stringMatching(/^mob_/) } });
    expect(Number(got.headers.get('x-ratelimit-remaining'))).toBe(48);

    const dup = await api.post(`/organizations/${o.body.id}/users`, { uid });
    expect(dup.status).toBeGreaterThanOrEqual(400);
    expect(dup.status).toBeLessThan(500);

    const unknown = await api.get(`/organizations/${o.body.id}/users/nobody-${uid}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ errors: [expect.any(String)] });
  });

  it('services in their own processes answer 401 to a caller that bypasses the gateway', async () => {
    for (const name of SERVICES) {
      const res = await fetch(`${serviceUrls[name]}/v2/organizations/org_x/users/u/rules`, {
        headers: { 'x-wellstream-customer-id': 'cus_x', 'x-wellstream-organization-id': 'org_x' },
      });
      expect([name, res.status]).toEqual([name, 401]);
    }
  });

  it('rejects unknown tokens with 401 {"message"} at the gateway', async () => {
    const res = await new ApiClient(`${gatewayUrl}/v2`, 'nope-not-a-token').get('/streams');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: expect.any(String) });
  });
});
