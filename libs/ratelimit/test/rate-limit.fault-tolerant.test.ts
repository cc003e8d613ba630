/**
 * The fault-tolerant wrapper: while the shared store fails, fail-open counts in process (the limit
 * still holds per process) and fail-closed refuses with a retry hint; both count the failures,
 * and the shared store takes over again as soon as it answers.
 */
import { FaultTolerantRateLimitStore, MemoryRateLimitStore, RateLimitStore, RateLimitStoreUnavailableError } from '../src';

class SwitchableStore implements RateLimitStore {
  down = false;
  readonly inner = new MemoryRateLimitStore();
  hit(key: string, limit: number, windowMs: number, now?: number) {
    return this.down ? Promise.reject(new Error('connection refused')) : this.inner.hit(key, limit, windowMs, now);
  }
  usage(keys: readonly string[], windowMs: number, now?: number) {
    return this.down ? Promise.reject(new Error('connection refused')) : this.inner.usage(keys, windowMs, now);
  }
  healthy = async () => !this.down;
  close = () => this.inner.close();
}

const logger = { warnings: [] as string[], warn(m: string) { this.warnings.push(m); }, info() {} };
const HOUR = 3_600_000;

it('fail-open: limits per process during the outage, warns once, counts errors, and recovers', async () => {
  const primary = new SwitchableStore();
  const store = new FaultTolerantRateLimitStore(primary, { mode: 'open', logger });
  expect((await store.hit('t', 3, HOUR)).allowed).toBe(true);
  primary.down = true;
  const during = await Promise.all(Array.from({ length: 5 }, () => store.hit('t', 3, HOUR)));
  expect(during.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
  expect(store.storeErrors).toBe(5);
  expect(store.degraded).toBe(true);
  expect(logger.warnings).toHaveLength(1);
  primary.down = false;
  // Back on the shared count (1 before the outage).
  expect(await store.hit('t', 3, HOUR)).toMatchObject({ allowed: true, remaining: 1 });
  expect(store.degraded).toBe(false);
});

it('fail-closed: refuses with a retry hint while the store is down', async () => {
  const primary = new SwitchableStore();
  const store = new FaultTolerantRateLimitStore(primary, { mode: 'closed', logger, retryAfterSeconds: 7 });
  primary.down = true;
  await expect(store.hit('t', 3, HOUR)).rejects.toEqual(expect.any(RateLimitStoreUnavailableError));
  await expect(store.hit('t', 3, HOUR)).rejects.toMatchObject({ retryAfterSeconds: 7 });
  expect(store.storeErrors).toBe(2);
  primary.down = false;
  expect((await store.hit('t', 3, HOUR)).allowed).toBe(true);
});

it('usage reads the shared store only, and fails with a retry hint while it is down (in either mode)', async () => {
  const primary = new SwitchableStore();
  const store = new FaultTolerantRateLimitStore(primary, { mode: 'open', logger, retryAfterSeconds: 4 });
  const now = Date.now();
  await store.hit('u', 10, HOUR, now);
  expect(await store.usage(['u'], HOUR, now)).toEqual([{ windowStart: Math.floor(now / HOUR) * HOUR, current: 1, previous: 0 }]);
  primary.down = true;
  // The hit is counted in process (fail-open), but that share is not reported as the token's usage.
  await store.hit('u', 10, HOUR, now);
  await expect(store.usage(['u'], HOUR, now)).rejects.toMatchObject({ name: 'RateLimitStoreUnavailableError', retryAfterSeconds: 4 });
});
