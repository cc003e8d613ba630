/**
 * The provider budget: every documented window counted before a request leaves, shared by every
 * replica (two clients on one store here), work ordered within it (history, then polls, then live
 * fetches are refused first), and a provider's "stop" (a 429, or headers saying a window is spent)
 * pausing the whole application until its reset. Refusals fail at once with rate_limited and the
 * time to wait; nothing waits on the event loop.
 */
import { MemoryProviderBudgetStore } from './budget/provider-budget.memory';
import type { BudgetWindow } from './budget/provider-budget.port';
import { isProviderError, ProviderHttp, ProviderRequest, ProviderResponse } from './provider.port';
import { RateLimitedHttp } from './rate-limited-http';

const req: ProviderRequest = { method: 'GET', url: 'http://127.0.0.1:9/x' };
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

function transport(answer: (n: number) => Partial<ProviderResponse> = () => ({})): ProviderHttp & { calls: number[] } {
  const t = { calls: [] as number[], send: async () => {
    t.calls.push(t.calls.length);
    const a = answer(t.calls.length);
    return { status: a.status ?? 200, headers: a.headers ?? {}, body: '{}' };
  } };
  return t;
}

const refusal = async (p: Promise<unknown>): Promise<number> => {
  try {
    await p;
  } catch (err) {
    if (isProviderError(err) && err.kind === 'rate_limited') return err.details.retryAfterMs ?? -1;
    throw err;
  }
  throw new Error('expected rate_limited');
};

function client(t: ProviderHttp, store: MemoryProviderBudgetStore, windows: BudgetWindow[], clock: { now: number }) {
  return new RateLimitedHttp(t, store, { key: 'polar', windows, fallbackWaitMs: 15 * MIN }, () => clock.now);
}

it('orders work within one window: history stops at 60 %, polls at 80 %, live at 95 %, a revoke or Connect may use it all', async () => {
  const clock = { now: 10 * MIN };
  const t = transport();
  const http = client(t, new MemoryProviderBudgetStore(), [{ limit: 100, windowMs: MIN }], clock);
  for (let i = 0; i < 60; i++) await http.for('c1', 'history').send(req);
  expect(await refusal(http.for('c1', 'history').send(req))).toBe(MIN);
  for (let i = 0; i < 20; i++) await http.for('c2', 'poll').send(req);
  await refusal(http.for('c2', 'poll').send(req));
  for (let i = 0; i < 15; i++) await http.for('c3', 'live').send(req);
  await refusal(http.for('c3', 'live').send(req));
  for (let i = 0; i < 5; i++) await http.interactive('c4').send(req);
  await refusal(http.interactive('c4').send(req));
  expect(t.calls).toHaveLength(100);
  clock.now += MIN;
  await http.for('c1', 'history').send(req);
  expect(t.calls).toHaveLength(101);
});

it('keeps every documented window: a day spent refuses until midnight UTC even with the short window free', async () => {
  const clock = { now: Date.parse('2026-01-05T23:00:00Z') };
  const http = client(transport(), new MemoryProviderBudgetStore(), [{ limit: 100, windowMs: MIN }, { limit: 150, windowMs: DAY }], clock);
  for (let i = 0; i < 150; i++) {
    await http.interactive().send(req);
    if (i % 90 === 89) clock.now += MIN;
  }
  expect(await refusal(http.interactive().send(req))).toBe(Date.parse('2026-01-06T00:00:00Z') - clock.now);
});

it('shares one budget between replicas', async () => {
  const clock = { now: 0 };
  const store = new MemoryProviderBudgetStore();
  const [ta, tb] = [transport(), transport()];
  const [a, b] = [client(ta, store, [{ limit: 10, windowMs: MIN }], clock), client(tb, store, [{ limit: 10, windowMs: MIN }], clock)];
  for (let i = 0; i < 20; i++) await Promise.allSettled([a.interactive().send(req), b.interactive().send(req)]);
  expect(ta.calls.length + tb.calls.length).toBe(10);
});

it('after a 429 no replica sends anything until the reset its headers give (Polar RateLimit-Reset, no Retry-After)', async () => {
  const clock = { now: 0 };
  const store = new MemoryProviderBudgetStore();
  const limited = transport(() => ({ status: 429, headers: { 'ratelimit-usage': '520, 900', 'ratelimit-limit': '520, 5100', 'ratelimit-reset': '40, 80000' } }));
  const other = transport();
  const a = client(limited, store, [{ limit: 1000, windowMs: MIN }], clock);
  const b = client(other, store, [{ limit: 1000, windowMs: MIN }], clock);
  expect((await a.for('c1', 'history').send(req)).status).toBe(429);
  clock.now += 5_000;
  // Another connection, another replica, even a revoke: nothing leaves before the reset.
  expect(await refusal(b.for('c2', 'live').send(req))).toBe(35_000);
  expect(await refusal(b.interactive('c3').send(req))).toBe(35_000);
  expect(other.calls).toHaveLength(0);
  clock.now += 35_000;
  await b.for('c2', 'live').send(req);
  expect(other.calls).toHaveLength(1);
});

it('pauses before the 429 when an answer says a window is spent (Polar usage at its limit, WHOOP remaining 0, Strava usage)', async () => {
  const cases: [Record<string, string>, number][] = [
    [{ 'ratelimit-usage': '500, 900', 'ratelimit-limit': '500, 5000', 'ratelimit-reset': '300, 80000' }, 300_000],
    [{ 'ratelimit-usage': '100, 5000', 'ratelimit-limit': '500, 5000', 'ratelimit-reset': '300, 80000' }, 80_000_000],
    [{ 'x-ratelimit-limit': '100, 100;window=60, 10000;window=86400', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '12' }, 12_000],
    [{ 'x-ratelimit-usage': '12, 1000', 'x-ratelimit-limit': '200, 2000', 'x-readratelimit-usage': '100, 900', 'x-readratelimit-limit': '100, 1000' }, 10 * MIN],
  ];
  for (const [headers, wait] of cases) {
    const clock = { now: Date.parse('2026-01-05T10:05:00Z') };
    const http = client(transport(() => ({ status: 200, headers })), new MemoryProviderBudgetStore(), [{ limit: 1000, windowMs: MIN }], clock);
    expect((await http.for('c1').send(req)).status).toBe(200);
    expect(await refusal(http.for('c1').send(req))).toBe(wait);
  }
});
