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

    it('keeps per-user windows for each user apart, under the application\'s windows, all or nothing', async () => {
      const key = rnd();
      const now = Math.floor(Date.now() / DAY) * DAY + 7 * MIN + 1_000;
      const app = [{ limit: 10, windowMs: MIN }];
      const perUser = [{ limit: 3, windowMs: MIN }];
      for (let i = 0; i < 3; i++) expect(await a.take(key, app, 1, now, { id: 'u1', windows: perUser })).toEqual({ allowed: true, retryAfterMs: 0 });
      // u1's minute is spent (on every replica); u2 has its own.
      expect(await b.take(key, app, 1, now, { id: 'u1', windows: perUser })).toEqual({ allowed: false, retryAfterMs: MIN - 1_000 });
      for (let i = 0; i < 3; i++) expect((await b.take(key, app, 1, now, { id: 'u2', windows: perUser })).allowed).toBe(true);
      // The refusal of u1 counted nothing in the application's minute: 6 taken, 4 left.
      for (let i = 0; i < 4; i++) expect((await a.take(key, app, 1, now)).allowed).toBe(true);
      // The application's minute refuses a user with room of its own, and counts nothing for that user.
      expect((await a.take(key, app, 1, now, { id: 'u3', windows: perUser })).allowed).toBe(false);
      expect((await a.take(key, [{ limit: 100, windowMs: MIN }], 1, now, { id: 'u3', windows: [{ limit: 1, windowMs: MIN }] })).allowed).toBe(true);
      // A class's share applies to a user's windows too: 60 % of 3 is 1.
      expect((await a.take(key, [{ limit: 100, windowMs: MIN }], 0.6, now + MIN, { id: 'u4', windows: perUser })).allowed).toBe(true);
      expect((await a.take(key, [{ limit: 100, windowMs: MIN }], 0.6, now + MIN, { id: 'u4', windows: perUser })).allowed).toBe(false);
      // A pause of the application holds every user.
      await a.pause(key, now + 2 * MIN + 5_000, now);
      expect(await b.take(key, app, 1, now + 2 * MIN, { id: 'u5', windows: perUser })).toEqual({ allowed: false, retryAfterMs: 5_000 });
    });

    it('refuses one connection at its per-user limit while other connections go on (RateLimitedHttp)', async () => {
      const now = Math.floor(Date.now() / DAY) * DAY + 20 * MIN;
      let sent = 0;
      const transport: ProviderHttp = { send: async () => (sent++, { status: 200, headers: {}, body: '{}' }) };
      const http = new RateLimitedHttp(transport, a, { key: rnd(), windows: [{ limit: 1000, windowMs: MIN }], userWindows: [{ limit: 5, windowMs: MIN }], fallbackWaitMs: MIN }, () => now);
      const get = (conn: string, cls: 'live' | 'history') => http.for(conn, cls).send({ method: 'GET', url: 'http://127.0.0.1:9/x' });
      for (let i = 0; i < 4; i++) await get('c1', 'live');
      await expect(get('c1', 'live')).rejects.toMatchObject({ kind: 'rate_limited', details: { retryAfterMs: MIN } });
      for (let i = 0; i < 4; i++) await get('c2', 'live');
      // Without a connection (an application call) only the application's windows count.
      for (let i = 0; i < 10; i++) await http.for(undefined, 'live').send({ method: 'GET', url: 'http://127.0.0.1:9/x' });
      // History gets 60 % of a user's minute: 3 of 5.
      for (let i = 0; i < 3; i++) await get('c3', 'history');
      await expect(get('c3', 'history')).rejects.toMatchObject({ kind: 'rate_limited' });
      expect(sent).toBe(4 + 4 + 10 + 3);
      // interactive() spends the whole per-user window.
      await http.interactive('c1').send({ method: 'GET', url: 'http://127.0.0.1:9/x' });
      await expect(http.interactive('c1').send({ method: 'GET', url: 'http://127.0.0.1:9/x' })).rejects.toMatchObject({ kind: 'rate_limited' });
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
