/**
 * The ProviderBudgetStore contract: one suite, run against the in-process store (component project) and
 * Redis (integration project) with the same assertions. Two stores opened on the same backing
 * (two replicas) must see one budget.
 */
import { randomBytes } from 'node:crypto';
import type { ProviderBudgetStore } from '../../src/providers/budget/provider-budget.port';
import type { ProviderHttp } from '../../src/providers/provider.port';
import { RateLimitedHttp } from '../../src/providers/rate-limited-http';
import { pollEveryMs } from '../../src/sync/poll-interval';

export interface BudgetHarness {
  /** A store; a second call gives another replica's store on the same backing. */
  open(): Promise<ProviderBudgetStore>;
}

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const rnd = () => `p-${randomBytes(4).toString('hex')}`;

export function providerBudgetContract(label: string, makeHarness: () => Promise<BudgetHarness>): void {
  describe(`ProviderBudgetStore contract: ${label}`, () => {
    let h: BudgetHarness;
    let a: ProviderBudgetStore;
    let b: ProviderBudgetStore;
    beforeAll(async () => {
      h = await makeHarness();
      a = await h.open();
      b = await h.open();
    });
    afterAll(async () => {
      await a?.close();
      if (b !== a) await b?.close();
    });

    it('counts every window and refuses at a share\'s ceiling with the time until that window starts again', async () => {
      const key = rnd();
      const now = Math.floor(Date.now() / DAY) * DAY + 10 * MIN + 5_000;
      const windows = [{ limit: 10, windowMs: MIN }, { limit: 1000, windowMs: DAY }];
      for (let i = 0; i < 6; i++) expect(await a.take(key, windows, 0.6, now)).toEqual({ allowed: true, retryAfterMs: 0 });
      expect(await a.take(key, windows, 0.6, now)).toEqual({ allowed: false, retryAfterMs: MIN - 5_000 });
      // A larger share still has room in the same counter.
      for (let i = 0; i < 4; i++) expect((await a.take(key, windows, 1, now)).allowed).toBe(true);
      expect((await a.take(key, windows, 1, now)).allowed).toBe(false);
      // The next minute starts afresh; the day remembers.
      expect((await a.take(key, windows, 1, now + MIN)).allowed).toBe(true);
    });

    it('is all or nothing: a refusing window counts nothing in the others', async () => {
      const key = rnd();
      const now = Math.floor(Date.now() / DAY) * DAY + 3 * MIN;
      const windows = [{ limit: 100, windowMs: MIN }, { limit: 2, windowMs: DAY }];
      expect((await a.take(key, windows, 1, now)).allowed).toBe(true);
      expect((await a.take(key, windows, 1, now)).allowed).toBe(true);
      expect(await a.take(key, windows, 1, now)).toEqual({ allowed: false, retryAfterMs: DAY - 3 * MIN });
      // Only the two allowed were counted in the minute: a 2-per-minute window still has none left, a 3 has one.
      expect((await a.take(key, [{ limit: 3, windowMs: MIN }], 1, now)).allowed).toBe(true);
      expect((await a.take(key, [{ limit: 3, windowMs: MIN }], 1, now)).allowed).toBe(false);
    });

    it('shares one budget between replicas, exactly, under concurrent takes', async () => {
      const key = rnd();
      const now = Date.now();
      const windows = [{ limit: 25, windowMs: MIN }];
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take(key, windows, 1, now)));
      expect(results.filter((r) => r.allowed)).toHaveLength(25);
    });

    it('pauses every replica until the later of the pauses asked, then allows again', async () => {
      const key = rnd();
      const now = Date.now();
      await a.pause(key, now + 30_000, now);
      await a.pause(key, now + 10_000, now);
      expect(await b.pausedUntil(key)).toBe(now + 30_000);
      expect(await b.take(key, [{ limit: 100, windowMs: MIN }], 1, now + 1_000)).toEqual({ allowed: false, retryAfterMs: 29_000 });
      expect((await b.take(key, [{ limit: 100, windowMs: MIN }], 1, now + 30_000)).allowed).toBe(true);
      expect(await a.pausedUntil(rnd())).toBe(0);
    });

    it('keeps a day of hourly polling for many users within WHOOP\'s 10,000 a day, with room left for live fetches', async () => {
      const windows = [{ limit: 100, windowMs: MIN }, { limit: 10_000, windowMs: DAY }];
      const day = Math.floor(Date.now() / DAY) * DAY;
      const clock = { now: day };
      let sent = 0;
      const transport: ProviderHttp = { send: async () => (sent++, { status: 200, headers: {}, body: '{}' }) };
      const http = new RateLimitedHttp(transport, a, { key: rnd(), windows, fallbackWaitMs: MIN }, () => clock.now);
      const users = 400;
      const resources = Array.from({ length: 4 }, (_, i) => ({ name: `r${i}`, recordTypes: ['summary' as const], maxWindowDays: 1 }));
      const every = pollEveryMs(60 * MIN, { http, adapter: { resources } } as never, users);
      const rounds: number[] = [];
      for (let u = 0; u < users; u++) for (let at = day + Math.floor((u / users) * every); at < day + DAY; at += every) rounds.push(at);
      rounds.sort((x, y) => x - y);
      let refused = 0;
      for (const at of rounds) {
        clock.now = at;
        for (const _r of resources) await http.for('u', 'poll').send({ method: 'GET', url: 'http://127.0.0.1:9/x' }).catch(() => refused++);
      }
      expect(every).toBeGreaterThan(60 * MIN);
      expect(refused).toBe(0);
      expect(sent).toBeLessThanOrEqual(3000 + 4);
      clock.now = day + DAY - MIN;
      for (let i = 0; i < 20; i++) await http.for('u', 'live').send({ method: 'GET', url: 'http://127.0.0.1:9/x' });
    }, 60_000);
  });
}
