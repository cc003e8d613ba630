/**
 * The operator API and token authentication through the gateway (embedded platform, real HTTP).
 */
import { createHash } from 'node:crypto';
import { ApiClient, createTenant, TEST_ADMIN_TOKEN } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

let platform: TestPlatform;
let admin: ApiClient;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
});
afterAll(() => platform.stop());

describe('operator API', () => {
  it('creates a customer, an organization and a token with the contract shapes', async () => {
    const c = await admin.post('/admin/customers', { name: 'Acme Health' });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ id: expect.any(String), name: 'Acme Health', created_at: expect.any(String) });

    const o = await admin.post(`/admin/customers/${c.body.id}/organizations`, { name: 'Clinic' });
    expect(o.status).toBe(201);
    expect(o.body).toMatchObject({ id: expect.any(String), customer_id: c.body.id, name: 'Clinic', created_at: expect.any(String) });

    const t = await admin.post(`/admin/customers/${c.body.id}/tokens`, { rate_limit_per_hour: 50 });
    expect(t.status).toBe(201);
    expect(t.body).toEqual({ token: expect.any(String), customer_id: c.body.id, rate_limit_per_hour: 50, created_at: expect.any(String) });
    expect(t.body.token.length).toBeGreaterThanOrEqual(40);

    const d = await admin.post(`/admin/customers/${c.body.id}/tokens`);
    expect(d.body.rate_limit_per_hour).toBe(2000);
  });

  it('rejects bad operator input with 400 and unknown customers with 404', async () => {
    const bad = await admin.post('/admin/customers', { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.name).toEqual([expect.any(String)]);
    const badLimit = await admin.post('/admin/customers/cus_x/tokens', { rate_limit_per_hour: -1 });
    expect(badLimit.status).toBe(400);
    const missing = await admin.post('/admin/customers/cus_missing/organizations', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: [expect.stringContaining('cus_missing')] });
  });

  it('answers 400 to malformed JSON and 404 JSON to unknown routes', async () => {
    const res = await admin.request('POST', '/admin/customers', undefined, { rawBody: '{"name": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [expect.stringMatching(/malformed json/i)] });
    const nf = await admin.get('/admin/nothing-here');
    expect(nf.status).toBe(404);
    expect(nf.body.errors).toHaveLength(1);
  });

  it('keeps developer tokens out of the operator API and the operator token out of customer routes', async () => {
    const tenant = await createTenant(platform.baseUrl);
    const res = await tenant.api.post('/admin/customers', { name: 'x' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: expect.any(String) });
    const asAdmin = await admin.get(`/organizations/${tenant.organizationId}/users`);
    expect(asAdmin.status).toBe(401);
  });

  it('revokes a token at once', async () => {
    const tenant = await createTenant(platform.baseUrl);
    expect((await tenant.api.get('/streams')).status).not.toBe(401);
    const r = await admin.delete(`/admin/tokens/${tenant.token}`);
    expect(r.status).toBe(200);
    const after = await tenant.api.get('/streams');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: expect.any(String) });
    expect((await admin.delete(`/admin/tokens/${tenant.token}`)).status).toBe(404);
  });
});

describe('authentication and organization isolation', () => {
  it('answers 401 {"message"} to a missing or unknown token', async () => {
    const tenant = await createTenant(platform.baseUrl);
    const none = await new ApiClient(platform.baseUrl).get(`/organizations/${tenant.organizationId}/users`);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: expect.any(String) });
    const unknown = await new ApiClient(platform.baseUrl, 'wst_not-a-token').get(`/organizations/${tenant.organizationId}/users`);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: expect.any(String) });
  });

  it("answers 401 {\"errors\":[...]} for another customer's organization, and for an unknown one", async () => {
    const a = await createTenant(platform.baseUrl);
    const b = await createTenant(platform.baseUrl);
    const cross = await a.api.get(`/organizations/${b.organizationId}/users`);
    expect(cross.status).toBe(401);
    expect(cross.body).toEqual({ errors: [expect.any(String)] });
    const ghost = await a.api.get('/organizations/org_does_not_exist/users');
    expect(ghost.status).toBe(401);
    expect(ghost.body).toEqual({ errors: [expect.any(String)] });
  });

  it('accepts Authorization: Bearer as an alternative to ?token=', async () => {
    const t = await createTenant(platform.baseUrl);
    const res = await new ApiClient(platform.baseUrl).get('/streams', { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.status).not.toBe(401);
  });
});

describe('health and docs', () => {
  it('answers /health 200 once every service is up', async () => {
    const res = await fetch(`${platform.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves a merged OpenAPI 3.1 document and a docs page', async () => {
    const doc = (await (await fetch(`${platform.baseUrl}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/admin/customers');
    const page = await fetch(`${platform.url}/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/admin/customers');
    // As strict as the marketplace: nothing but the page's one inline style, allowed by its hash.
    const csp = page.headers.get('content-security-policy') ?? '';
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    expect(styles).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(styles[0]).digest('base64')}'`;
    expect(csp.split('; ').sort()).toEqual(
      ["base-uri 'none'", "connect-src 'none'", "default-src 'none'", "form-action 'none'", "frame-ancestors 'none'", "script-src 'none'", `style-src ${hash}`].sort(),
    );
    expect(html).not.toMatch(/<script|\sstyle="|<link|<img|<iframe|\son[a-z]+="/i);
    expect([page.headers.get('referrer-policy'), page.headers.get('x-content-type-options'), page.headers.get('cache-control')]).toEqual(['no-referrer', 'nosniff', 'no-store']);
  });
});
