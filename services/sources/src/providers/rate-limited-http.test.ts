/**
 * The per-application budget and the provider's pauses: a call past either fails at once with
 * rate_limited and how long to wait (nothing waits on the event loop); background sync leaves a
 * fifth of the budget for calls a person is waiting on.
 */
import { isProviderError, ProviderHttp, ProviderRequest } from './provider.port';
import { RateLimitedHttp, retryAfterMs } from './rate-limited-http';

const req: ProviderRequest = { method: 'GET', url: 'http://127.0.0.1:9/x' };
const answering = (status: number, headers: Record<string, string> = {}): ProviderHttp & { calls: number } => {
  const t = { calls: 0, send: async () => (t.calls++, { status, headers, body: '{}' }) };
  return t;
};
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (isProviderError(err) && err.kind === 'rate_limited') return err.details.retryAfterMs;
    throw err;
  }
  throw new Error('expected rate_limited');
};

it('keeps background sync to 80 % of the minute\'s budget and the rest for interactive calls', async () => {
  let now = 1_000_000;
  const transport = answering(200);
  const http = new RateLimitedHttp(transport, 10, () => now);
  for (let i = 0; i < 8; i++) await http.for('c1').send(req);
  expect(await refusal(http.for('c2').send(req))).toBe(60_000);
  await http.interactive().send(req);
  await http.interactive().send(req);
  expect(await refusal(http.interactive().send(req))).toBe(60_000);
  expect(transport.calls).toBe(10);
  now += 60_000;
  await http.for('c1').send(req);
  expect(transport.calls).toBe(11);
});

it('pauses the connection a 429 named for as long as Retry-After says, not the others', async () => {
  let now = 0;
  const http = new RateLimitedHttp(answering(429, { 'retry-after': '7' }), 100, () => now);
  expect((await http.for('c1').send(req)).status).toBe(429);
  expect(await refusal(http.for('c1').send(req))).toBe(7000);
  now += 7001;
  expect((await http.for('c1').send(req)).status).toBe(429);
});

it('reads Retry-After as seconds or an HTTP date', () => {
  expect(retryAfterMs('12')).toBe(12_000);
  expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString(), Date.now())).toBeGreaterThan(3000);
  expect(retryAfterMs('soon')).toBeUndefined();
  expect(retryAfterMs(undefined)).toBeUndefined();
});
