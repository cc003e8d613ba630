/**
 * The per-token hourly limit through the gateway: exact under concurrency, headers on every
 * answer, 429 {"message"} with Retry-After past the limit, and per-token independence.
 */
import { ApiClient, clearOfTheHourTurn, createTenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.stop());
// Each test counts its requests within one clock hour (the limit's window).
beforeEach(() => clearOfTheHourTurn(20_000), 30_000);

it('lets exactly 10 of 20 parallel requests through on a token limited to 10', async () => {
  const t = await createTenant(platform.baseUrl, { rateLimitPerHour: 10 });
  const answers = await Promise.all(Array.from({ length: 20 }, () => t.api.get('/streams')));
  const limited = answers.filter((a) => a.status === 429);
  expect(answers.length - limited.length).toBe(10);
  expect(limited).toHaveLength(10);
  for (const a of limited) {
    expect(a.body).toEqual({ message: expect.stringMatching(/rate limit/i) });
    const retryAfter = Number(a.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(a.headers.get('x-ratelimit-remaining')).toBe('0');
  }
  const remaining = answers.filter((a) => a.status !== 429).map((a) => Number(a.headers.get('x-ratelimit-remaining')));
  expect(remaining.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

it('carries X-RateLimit-Limit, -Remaining and -Reset on every answer, errors included', async () => {
  const t = await createTenant(platform.baseUrl, { rateLimitPerHour: 100 });
  const ok = await t.api.get('/streams');
  const nf = await t.api.get(`/organizations/${t.organizationId}/users/nobody`);
  const foreign = await t.api.get('/organizations/org_foreign/users');
  for (const res of [ok, nf, foreign]) {
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(100);
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(now + 3600);
  }
  expect(foreign.status).toBe(401);
});

it('counts each token separately', async () => {
  const a = await createTenant(platform.baseUrl, { rateLimitPerHour: 2 });
  const b = await createTenant(platform.baseUrl, { rateLimitPerHour: 2 });
  await a.api.get('/streams');
  await a.api.get('/streams');
  expect((await a.api.get('/streams')).status).toBe(429);
  expect((await b.api.get('/streams')).status).not.toBe(429);
  expect((await new ApiClient(platform.baseUrl, a.token).get('/streams')).status).toBe(429);
});
