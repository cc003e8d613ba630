/**
 * Distributed mode end to end: the gateway and every service as its own Node process (the built
 * dist/main.js files, as in a container), on the real Kafka, MongoDB API and Redis, isolated by
 * unique prefixes. Drives the operator API and the users API over HTTP and checks the answers have
 * the same shapes as in embedded mode. Every process is killed at the end, and on failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient, clearOfTheHourTurn, distributedEnv, ProcessPlatform, SERVICE_NAMES, startProcessPlatform, TEST_ADMIN_TOKEN } from '@wellstream/testing';

jest.setTimeout(180_000);

describe('distributed mode, one process per deployable', () => {
  let platform: ProcessPlatform;
  let gatewayUrl = '';
  let admin: ApiClient;

  beforeAll(async () => {
    const t0 = Date.now();
    platform = await startProcessPlatform({
      ...distributedEnv('e2e'),
      WELLSTREAM_LOG_LEVEL: process.env.WELLSTREAM_E2E_LOG_LEVEL ?? 'warn',
      WELLSTREAM_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-e2e-')),
    });
    gatewayUrl = platform.gatewayUrl;
    admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    process.stdout.write(`[e2e] 6 processes healthy after ${Date.now() - t0} ms\n`);
  }, 120_000);

  afterAll(async () => {
    const t0 = Date.now();
    await platform?.stop();
    process.stdout.write(`[e2e] all processes stopped in ${Date.now() - t0} ms\n`);
  }, 60_000);

  it('answers /health with {"status":"ok"} once every service is up', async () => {
    const res = await fetch(`${gatewayUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    for (const p of platform.processes.values()) expect(p.child.exitCode).toBeNull();
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
    await clearOfTheHourTurn(15_000); // the remaining count below is within one clock hour
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
    for (const name of SERVICE_NAMES) {
      const res = await fetch(`${platform.url(name)}/v2/organizations/org_x/users/u/rules`, {
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
