/**
 * Replay through the gateway: the customer's last 30 days in order, then live events; `date`,
 * `resources`, `event_types` and their 400s; isolation between customers; pokes; SSE ids.
 */
import { randomUUID } from 'node:crypto';
import { createTenant, eventually, SseConnection, Tenant, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { connectReplay, markOf, marksOf, publish, sleep } from './stream-fixtures';

const POKE_MS = 300;
const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600 * 1000).toISOString();
const dayOf = (iso: string) => iso.slice(0, 10);

function replaySuite(mode: 'embedded' | 'distributed') {
  describe(`replay (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    let other: Tenant;
    const open: SseConnection[] = [];
    const replay = async (query = '', who = () => tenant) => {
      const c = await connectReplay(platform.baseUrl, who(), query);
      open.push(c);
      return c;
    };
    /** Marks without the live event the first test publishes. */
    const historical = (c: SseConnection) => marksOf(c).filter((m) => m !== 'live');
    /**
     * Waits for exactly `expected` (as a set; order is per user, since the log orders events per
     * partition = user, not across users), and checks each user's events keep their order.
     */
    const expectReplayed = async (c: SseConnection, expected: string[]) => {
      await eventually(async () => expected.every((m) => historical(c).includes(m)));
      await sleep(POKE_MS);
      expect(historical(c).slice().sort()).toEqual(expected.slice().sort());
      for (const user of [u1Marks, u2Marks]) {
        const got = historical(c).filter((m) => user.includes(m));
        expect(got).toEqual(user.filter((m) => got.includes(m)));
      }
    };
    const u1Marks = ['sleep-20d', 'connection-5d', 'rule-1d'];
    const u2Marks = ['cgm-10d', 'measurement-2d', 'end'];
    const u1 = `u-${randomUUID()}`;
    const u2 = `u-${randomUUID()}`;

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'streams-replay', env: { WELLSTREAM_POKE_INTERVAL_MS: String(POKE_MS) } });
      tenant = await createTenant(platform.baseUrl);
      other = await createTenant(platform.baseUrl);
      await publish(platform.eventLog, other, [{ userId: u1, mark: 'other-customer' }]);
      await publish(platform.eventLog, tenant, [
        { userId: u1, resource: 'sleep', createdAt: daysAgo(20), mark: 'sleep-20d' },
        { userId: u2, resource: 'cgm', createdAt: daysAgo(10), mark: 'cgm-10d' },
        { userId: u1, eventType: 'connection', createdAt: daysAgo(5), mark: 'connection-5d' },
        { userId: u2, resource: 'measurement', createdAt: daysAgo(2), mark: 'measurement-2d' },
        { userId: u1, eventType: 'rule', createdAt: daysAgo(1), mark: 'rule-1d' },
        { userId: u2, resource: 'summary', createdAt: daysAgo(0), mark: 'end' },
      ]);
      await publish(platform.eventLog, other, [{ userId: u2, mark: 'other-customer-2' }]);
    });
    afterAll(async () => {
      for (const c of open) c.close();
      await platform?.stop();
    });
    afterEach(() => {
      for (const c of open.splice(0)) c.close();
    });

    it('replays every event of the customer in order, with ids, then stays live', async () => {
      const c = await replay();
      expect(c.status).toBe(200);
      expect(c.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(c.headers.get('cache-control')).toBe('no-cache, no-transform');
      await expectReplayed(c, ['sleep-20d', 'cgm-10d', 'connection-5d', 'measurement-2d', 'rule-1d', 'end']);
      const events = c.events.filter((e) => e.event !== 'poke');
      const typeOf = (mark: string) => events.find((e) => markOf(e) === mark)?.event;
      expect(['sleep-20d', 'connection-5d', 'rule-1d'].map(typeOf)).toEqual(['data', 'connection', 'rule']);
      expect(events.every((e) => /^\d+-\d+$/.test(e.id ?? ''))).toBe(true);

      const poke = await c.waitFor((e) => e.event === 'poke', POKE_MS * 4);
      expect(poke.json()).toEqual({ ts: expect.any(String) });
      expect(poke.id).toBeUndefined();

      await publish(platform.eventLog, tenant, [{ userId: u1, mark: 'live' }]);
      await c.waitFor((e) => e.event === 'data' && markOf(e) === 'live');
    });

    it('marks the end of the historical part with a comment', async () => {
      const res = await fetch(`${platform.baseUrl}/replay?token=${tenant.token}`);
      const reader = res.body!.getReader();
      let text = '';
      const deadline = Date.now() + 10_000;
      while (!text.includes(': replay caught up') && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      expect(text).toContain(': replay caught up\n\n');
      expect(text.indexOf('"log_id":"end"')).toBeLessThan(text.indexOf(': replay caught up'));
    });

    it('delivers each customer only its own events', async () => {
      const c = await replay('', () => other);
      await eventually(async () => marksOf(c).length >= 2);
      await sleep(POKE_MS);
      expect(marksOf(c).sort()).toEqual(['other-customer', 'other-customer-2']);
      const lonely = await replay('', () => tenantWithoutEvents);
      await lonely.waitFor((e) => e.event === 'poke', POKE_MS * 4);
      expect(marksOf(lonely)).toEqual([]);
    });
    let tenantWithoutEvents: Tenant;
    beforeAll(async () => {
      tenantWithoutEvents = await createTenant(platform.baseUrl);
    });

    it('filters by date (created_at on or after the UTC day)', async () => {
      const c = await replay(`&date=${dayOf(daysAgo(5))}`);
      await expectReplayed(c, ['connection-5d', 'measurement-2d', 'rule-1d', 'end']);
    });

    it('filters data events by resources (other event types pass)', async () => {
      const c = await replay('&resources=cgm,summary');
      await expectReplayed(c, ['cgm-10d', 'connection-5d', 'rule-1d', 'end']);
    });

    it('filters by event_types', async () => {
      const c = await replay('&event_types=connection,rule');
      await expectReplayed(c, ['connection-5d', 'rule-1d']);
      const d = await replay('&event_types=data&resources=sleep,summary&date=' + dayOf(daysAgo(30)));
      await expectReplayed(d, ['sleep-20d', 'end']);
    });

    it('answers bad parameters with 400 JSON before the stream opens', async () => {
      const cases: [string, string][] = [
        ['date=2024-1-1', 'date'],
        ['date=2023-02-29', 'date'],
        ['date=yesterday', 'date'],
        ['resources=steps', 'resources'],
        ['resources=sleep,', 'resources'],
        ['resources=sleep&resources=cgm', 'resources'],
        ['event_types=poke', 'event_types'],
        ['last_event_id=abc', 'last_event_id'],
      ];
      for (const [q, field] of cases) {
        const res = await tenant.api.get(`/replay?${q}`);
        expect({ q, status: res.status }).toEqual({ q, status: 400 });
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(res.body.errors[field]).toEqual([expect.any(String)]);
      }
      expect((await tenant.api.withToken(undefined).get('/replay')).status).toBe(401);
    });

    it('gives every replay client the whole stream (no load balancing)', async () => {
      const a = await replay();
      const b = await replay();
      const all = [...u1Marks, ...u2Marks];
      await expectReplayed(a, all);
      await expectReplayed(b, all);
    });
  });
}

replaySuite(testRuntime());
