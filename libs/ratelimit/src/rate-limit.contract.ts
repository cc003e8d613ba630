/**
 * The RateLimitStore contract: one suite, run against the in-memory store (component project) and Redis
 * (integration project) with the same assertions. Excluded from the build.
 */
import { randomBytes } from 'node:crypto';
import type { RateLimitStore } from './rate-limit.port';

export interface RateLimitHarness {
  open(): Promise<RateLimitStore>;
  /** Milliseconds until the counter behind (key, window) expires; omitted where counters do not expire. */
  ttlMs?(store: RateLimitStore, key: string, windowMs: number, now: number): Promise<number>;
}

const HOUR = 3_600_000;
const rnd = () => randomBytes(4).toString('hex');

export function rateLimitContract(label: string, makeHarness: () => Promise<RateLimitHarness>): void {
  describe(`RateLimitStore contract: ${label}`, () => {
    let h: RateLimitHarness;
    let store: RateLimitStore;
    beforeAll(async () => {
      h = await makeHarness();
      store = await h.open();
    });
    afterAll(() => store?.close());

    it('allows exactly N of 50 concurrent hits with limit N', async () => {
      const key = `tok-${rnd()}`;
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 50 }, () => store.hit(key, 7, HOUR, now)));
      expect(results.filter((r) => r.allowed)).toHaveLength(7);
      expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0)).toBe(true);
      const remaining = results.filter((r) => r.allowed).map((r) => r.remaining).sort();
      expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });

    it('reports limit, remaining and the window end; denied hits do not count', async () => {
      const key = `tok-${rnd()}`;
      const windowStart = Math.floor(Date.now() / HOUR) * HOUR;
      const now = windowStart + 1234;
      const first = await store.hit(key, 2, HOUR, now);
      expect(first).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: windowStart + HOUR });
      expect(await store.hit(key, 2, HOUR, now + 1)).toEqual({ allowed: true, limit: 2, remaining: 0, resetAt: windowStart + HOUR });
      for (let i = 0; i < 5; i++) {
        expect(await store.hit(key, 2, HOUR, now + 2)).toEqual({ allowed: false, limit: 2, remaining: 0, resetAt: windowStart + HOUR });
      }
      // A raised limit sees the true count (2), not 2 + the 5 denied hits.
      expect(await store.hit(key, 4, HOUR, now + 3)).toEqual({ allowed: true, limit: 4, remaining: 1, resetAt: windowStart + HOUR });
    });

    it('starts a fresh count in the next window and keeps keys apart', async () => {
      const key = `tok-${rnd()}`;
      const windowMs = 60_000;
      const start = Math.floor(Date.now() / windowMs) * windowMs;
      expect((await store.hit(key, 1, windowMs, start + 10)).allowed).toBe(true);
      expect((await store.hit(key, 1, windowMs, start + 20)).allowed).toBe(false);
      expect((await store.hit(`${key}-other`, 1, windowMs, start + 20)).allowed).toBe(true);
      const next = await store.hit(key, 1, windowMs, start + windowMs + 5);
      expect(next).toEqual({ allowed: true, limit: 1, remaining: 0, resetAt: start + 2 * windowMs });
    });

    it('gives every counter an expiry that outlives the next window by little (where the store has one)', async () => {
      if (!h.ttlMs) return;
      const key = `tok-${rnd()}`;
      const now = Date.now();
      await store.hit(key, 3, HOUR, now);
      const ttl = await h.ttlMs(store, key, HOUR, now);
      const nextWindowEnds = Math.floor(now / HOUR) * HOUR + 2 * HOUR;
      expect(ttl).toBeGreaterThan(nextWindowEnds - Date.now() - 1_000);
      expect(ttl).toBeLessThanOrEqual(nextWindowEnds - now + 10_000);
    });

    it('reads usage of the current and previous window without counting, per key, in order', async () => {
      const [a, b, never] = [`tok-${rnd()}`, `tok-${rnd()}`, `tok-${rnd()}`];
      const start = Math.floor(Date.now() / HOUR) * HOUR;
      const before = start - HOUR + 5;
      for (let i = 0; i < 3; i++) await store.hit(a, 100, HOUR, before);
      // Denied hits are not usage: b allows 2 of 4.
      for (let i = 0; i < 4; i++) await store.hit(b, 2, HOUR, before);
      await store.hit(a, 100, HOUR, start + 10);
      expect(await store.usage([a, b, never], HOUR, start + 20)).toEqual([
        { windowStart: start, current: 1, previous: 3 },
        { windowStart: start, current: 0, previous: 2 },
        { windowStart: start, current: 0, previous: 0 },
      ]);
      // Reading counted nothing.
      expect(await store.usage([a], HOUR, start + 30)).toEqual([{ windowStart: start, current: 1, previous: 3 }]);
      // Two windows later, nothing is left of either.
      expect(await store.usage([a], HOUR, start + 2 * HOUR)).toEqual([{ windowStart: start + 2 * HOUR, current: 0, previous: 0 }]);
      expect(await store.usage([], HOUR)).toEqual([]);
    });

    it('is healthy while open', async () => {
      expect(await store.healthy()).toBe(true);
    });
  });
}
