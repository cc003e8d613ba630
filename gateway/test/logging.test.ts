/**
 * Logs: one JSON line per request with the request id the gateway assigned (forwarded to the
 * service), and no token anywhere in them.
 */
import { captureLogs } from '@wellstream/logging';
import { ApiClient, createTenant, TEST_ADMIN_TOKEN } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.stop());

it('never writes a token, the admin token or a bearer header to the logs', async () => {
  const lines: string[] = [];
  const stop = captureLogs((l) => lines.push(l));
  try {
    const t = await createTenant(platform.baseUrl);
    await t.api.get(`/organizations/${t.organizationId}/users`);
    await t.api.get('/streams');
    await new ApiClient(platform.baseUrl).get('/streams', { headers: { authorization: `Bearer ${t.token}` } });
    await new ApiClient(platform.baseUrl, 'wst_unknown_token_value_123').get('/streams');
    await new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN).delete(`/admin/tokens/${t.token}`);
    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(all).not.toContain(t.token);
    expect(all).not.toContain(TEST_ADMIN_TOKEN);
    expect(all).not.toContain('wst_unknown_token_value_123');
    expect(all).toContain('[REDACTED]');
  } finally {
    stop();
  }
});

it('assigns a request id, answers it, and forwards it to the service that logs the same id', async () => {
  const lines: string[] = [];
  const stop = captureLogs((l) => lines.push(l));
  try {
    const t = await createTenant(platform.baseUrl);
    const res = await t.api.get('/streams', { headers: { 'x-request-id': 'req-test-42' } });
    expect(res.headers.get('x-request-id')).toBe('req-test-42');
    const fresh = await t.api.get('/streams');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tagged = lines.map((l) => JSON.parse(l)).filter((l) => l.request_id === 'req-test-42' && l.message === 'request');
    expect(tagged.map((l) => l.service).sort()).toEqual(['gateway', 'streams']);
  } finally {
    stop();
  }
});
