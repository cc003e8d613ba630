/**
 * Connecting to streams through the gateway: SSE format, pokes, members, delete while connected,
 * filters, per-user load balancing across clients, durable resume, Last-Event-ID, member limit.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createTenant, eventually, SseConnection, Tenant, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { connectReplay, connectStream, markOf, marksOf, publish, sleep } from './stream-fixtures';

const POKE_MS = 300;
/**
 * How long a test waits for a poke at POKE_MS: a poke's payload asks the event log for the member
 * count (a real broker in the distributed run, slow on a loaded machine), so a few intervals are too
 * tight; still well under the 5 s default interval, so a poke at the default would fail the wait.
 */
const POKE_WAIT_MS = 4_000;
const MAX_MEMBERS = 3;

function streamDeliverySuite(mode: 'embedded' | 'distributed') {
  describe(`stream delivery (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    const open: SseConnection[] = [];

    const connect = async (streamId: string, headers?: Record<string, string>, query?: string) => {
      const c = await connectStream(platform.baseUrl, tenant, streamId, headers, query);
      open.push(c);
      return c;
    };
    const createStream = async (body: Record<string, unknown> = {}) => {
      const res = await tenant.api.post('/streams', { name: `s-${randomUUID()}`, ...body });
      expect(res.status).toBe(201);
      return res.body as { id: string; group: string };
    };
    const members = async (id: string) => (await tenant.api.get(`/streams/${id}`)).body.members as number;
    const waitMembers = (id: string, n: number) => eventually(async () => (await members(id)) === n, 30_000);
    const users = (n: number) => {
      const prefix = randomUUID().slice(0, 8);
      return [...Array(n).keys()].map((i) => `${prefix}-u${i}`);
    };
    /** Publishes one data event per user per round, marked user/round. */
    const publishRounds = (us: string[], rounds: number[]) =>
      publish(
        platform.eventLog,
        tenant,
        rounds.flatMap((r) => us.map((u) => ({ userId: u, mark: `${u}/${r}` }))),
      );
    const received = (cs: SseConnection[]) => cs.flatMap(marksOf);

    beforeAll(async () => {
      platform = await startTestPlatform({
        mode,
        label: 'streams-delivery',
        env: {
          WELLSTREAM_POKE_INTERVAL_MS: String(POKE_MS),
          WELLSTREAM_STREAM_MAX_MEMBERS: String(MAX_MEMBERS),
          WELLSTREAM_STREAM_WRITE_TIMEOUT_MS: '1000',
          WELLSTREAM_STREAM_MAX_BUFFER_BYTES: String(256 * 1024),
          // A client's last minute counts as possibly unread when it goes: long enough that what
          // the tests' clients were written always is, on a loaded machine too.
          WELLSTREAM_STREAM_RESEND_WINDOW_MS: '60000',
        },
      });
    });
    afterAll(async () => {
      for (const c of open) c.close();
      await platform?.stop();
    });
    beforeEach(async () => {
      tenant = await createTenant(platform.baseUrl);
    });
    afterEach(() => {
      for (const c of open.splice(0)) c.close();
    });

    it('opens an event stream with pokes, members and data events with ids', async () => {
      const stream = await createStream();
      const c = await connect(stream.id);
      expect(c.status).toBe(200);
      expect(c.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(c.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(c.headers.get('x-accel-buffering')).toBe('no');
      const poke = await c.waitFor((e) => e.event === 'poke', POKE_WAIT_MS);
      expect(poke.id).toBeUndefined();
      expect(poke.json()).toEqual({ ts: expect.any(String), stream: stream.id, members: { count: 1, max: MAX_MEMBERS } });
      expect(Number.isNaN(Date.parse(poke.json().ts))).toBe(false);
      await waitMembers(stream.id, 1);

      const [u] = users(1);
      await publish(platform.eventLog, tenant, [
        { userId: u, mark: 'd1' },
        { userId: u, eventType: 'connection', mark: 'c1' },
        { userId: u, eventType: 'rule', mark: 'r1' },
      ]);
      await c.waitFor((e) => e.event === 'rule');
      const events = c.events.filter((e) => e.event !== 'poke');
      expect(events.map((e) => e.event)).toEqual(['data', 'connection', 'rule']);
      expect(events.map((e) => markOf(e))).toEqual(['d1', 'c1', 'r1']);
      expect(events.every((e) => /^\d+-\d+$/.test(e.id ?? ''))).toBe(true);
      expect(events[0].json()).toMatchObject({ type: 'measurement', user: { user_id: u } });

      // Pokes keep coming while idle, and the stream shows the client.
      const before = c.events.length;
      await c.waitFor((e) => e.event === 'poke', POKE_WAIT_MS, before);
      c.close();
      await waitMembers(stream.id, 0);
    });

    it('refuses to delete while clients are connected (409), then deletes (200)', async () => {
      const stream = await createStream();
      const c = await connect(stream.id);
      await waitMembers(stream.id, 1);
      const refused = await tenant.api.delete(`/streams/${stream.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual([expect.stringMatching(/connected/)]);
      c.close();
      await waitMembers(stream.id, 0);
      const deleted = await tenant.api.delete(`/streams/${stream.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.deleted_at).toEqual(expect.any(String));
      expect((await connectStream(platform.baseUrl, tenant, stream.id)).status).toBe(404);
    });

    it('applies resource, start_date and event type filters, and only the customer own events', async () => {
      const byResource = await createStream({ resource_filter: ['sleep', 'cgm'] });
      const byDate = await createStream({ start_date: '2030-01-02' });
      const byType = await createStream({ event_type_filter: ['connection'] });
      const cr = await connect(byResource.id);
      const cd = await connect(byDate.id);
      const ct = await connect(byType.id);
      for (const s of [byResource, byDate, byType]) await waitMembers(s.id, 1);
      const other = await createTenant(platform.baseUrl);
      const [u] = users(1);
      await publish(platform.eventLog, other, [{ userId: u, resource: 'sleep', mark: 'other-customer' }]);
      await publish(platform.eventLog, tenant, [
        { userId: u, resource: 'sleep', startTime: '2030-01-01T23:59:59Z', mark: 'sleep-before' },
        { userId: u, resource: 'measurement', startTime: '2030-01-02T00:00:00Z', mark: 'measurement-on' },
        { userId: u, resource: 'cgm', startTime: '2030-01-05T00:00:00Z', mark: 'cgm-after' },
        { userId: u, eventType: 'connection', mark: 'connection' },
        { userId: u, eventType: 'rule', mark: 'rule' },
        { userId: u, resource: 'summary', startTime: '2030-02-01T00:00:00Z', mark: 'end' },
      ]);
      await cd.waitFor((e) => e.event === 'data' && markOf(e) === 'end');
      await ct.waitFor((e) => markOf(e) === 'connection' && e.event === 'connection');
      await cr.waitFor((e) => e.event === 'rule');
      // Resource filters apply to data events; connection and rule events have no resource.
      expect(marksOf(cr)).toEqual(['sleep-before', 'cgm-after', 'connection', 'rule']);
      // start_date applies to events with a start time (data events).
      expect(marksOf(cd)).toEqual(['measurement-on', 'cgm-after', 'connection', 'rule', 'end']);
      await sleep(POKE_MS);
      expect(marksOf(ct)).toEqual(['connection']);
    });

    /**
     * Publishes rounds (one event per user) until a round is split cleanly: each event once, each
     * user on one client. With Kafka a rebalance finishes a little after the membership shows, and
     * a user may move between clients meanwhile; every event must still arrive at least once.
     */
    const stableRound = async (clients: SseConnection[], us: string[], firstRound: number, mustServe: SseConnection[] = []) => {
      for (let round = firstRound; round < firstRound + 10; round++) {
        const start = clients.map((x) => x.events.length);
        const slice = () => clients.map((x, i) => ({ ...x, events: x.events.slice(start[i]) }) as SseConnection);
        await publishRounds(us, [round]);
        const expected = us.map((u) => `${u}/${round}`);
        await eventually(async () => {
          const got = new Set(received(slice()));
          return expected.every((m) => got.has(m));
        }, 20_000);
        await sleep(POKE_MS);
        const sl = slice();
        const busy = sl.filter((x) => marksOf(x).length > 0).length;
        const served = mustServe.every((m) => marksOf(sl[clients.indexOf(m)]).length > 0);
        if (isCleanSplit(sl, us, [round]) && busy >= 2 && served) return { clients: sl, round };
      }
      throw new Error('no clean split within 10 rounds');
    };

    it('splits users between two clients, then three, and a new client takes over from one that quits', async () => {
      const stream = await createStream();
      const a = await connect(stream.id);
      const b = await connect(stream.id);
      await waitMembers(stream.id, 2);
      const us = users(40);
      const first = await stableRound([a, b], us, 1);
      expectSplit(first.clients, us, first.round);

      // A third client joins: still each event once, each user on one client.
      const c = await connect(stream.id);
      await waitMembers(stream.id, 3);
      const second = await stableRound([a, b, c], us, 20);
      expectSplit(second.clients, us, second.round);

      // One quits; a new one takes its place; nothing is lost.
      a.close();
      await waitMembers(stream.id, 2);
      const d = await connect(stream.id);
      await waitMembers(stream.id, 3);
      const third = await stableRound([b, c, d], us, 40, [d]);
      expectSplit(third.clients, us, third.round);
      expect(marksOf(third.clients[2]).length).toBeGreaterThan(0);
    });

    it('keeps its position when every client is gone: the next client gets everything since, and again what the last one may not have read', async () => {
      const stream = await createStream();
      const us = users(6);
      // Events before the first client connects are kept for the stream (its group starts at creation).
      await publishRounds(us, [1]);
      const a = await connect(stream.id);
      await eventually(async () => marksOf(a).length >= 6);
      a.close();
      await waitMembers(stream.id, 0);
      await publishRounds(us, [2, 3]);
      const b = await connect(stream.id);
      await eventually(async () => marksOf(b).length >= 18);
      await sleep(POKE_MS);
      // Round 1 comes again: `a` was written it within the resend window, and the server cannot
      // tell whether it read it (at least once; connection-writes.ts). Each once, in order per user.
      const got = marksOf(b);
      for (const u of us) expect(got.filter((m) => m.startsWith(`${u}/`))).toEqual([`${u}/1`, `${u}/2`, `${u}/3`]);
      expect(got).toHaveLength(18);
    });

    it('resumes after Last-Event-ID (header or query) within its partition; 400 for a malformed id', async () => {
      const stream = await createStream();
      const [u] = users(1);
      await publish(platform.eventLog, tenant, [1, 2, 3, 4].map((i) => ({ userId: u, mark: `e${i}` })));
      // Replay shows the same ids, which lets the test learn positions without consuming the stream.
      const r = await connectReplay(platform.baseUrl, tenant);
      open.push(r);
      await r.waitFor((e) => markOf(e) === 'e4' && e.event === 'data');
      const ids = r.events.filter((e) => e.event === 'data').map((e) => e.id as string);
      const c = await connect(stream.id, { 'Last-Event-ID': ids[1] });
      await c.waitFor((e) => e.event === 'data' && markOf(e) === 'e4');
      await sleep(POKE_MS);
      expect(marksOf(c)).toEqual(['e3', 'e4']);
      expect(c.events.filter((e) => e.event === 'data').map((e) => e.id)).toEqual(ids.slice(2));
      c.close();
      await waitMembers(stream.id, 0);

      const stream2 = await createStream();
      await publish(platform.eventLog, tenant, [5, 6].map((i) => ({ userId: u, mark: `e${i}` })));
      const r2 = await connectReplay(platform.baseUrl, tenant);
      open.push(r2);
      const e5 = await r2.waitFor((e) => e.event === 'data' && markOf(e) === 'e5');
      const q = await connect(stream2.id, undefined, `&last_event_id=${e5.id}`);
      await q.waitFor((e) => e.event === 'data' && markOf(e) === 'e6');
      expect(marksOf(q)).toEqual(['e6']);

      const bad = await connectStream(platform.baseUrl, tenant, stream2.id, { 'Last-Event-ID': 'garbage' });
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.errorBody!).errors['Last-Event-ID']).toBeDefined();
    });

    it('gives a client resuming with Last-Event-ID what it lost on the way, though the group had committed it', async () => {
      const stream = await createStream();
      const [u] = users(1);
      const first = await connect(stream.id);
      await waitMembers(stream.id, 1);
      await publish(platform.eventLog, tenant, [1, 2, 3, 4].map((i) => ({ userId: u, mark: `l${i}` })));
      await first.waitFor((e) => e.event === 'data' && markOf(e) === 'l4');
      const ids = first.events.filter((e) => e.event === 'data').map((e) => e.id as string);
      first.close();
      await waitMembers(stream.id, 0);
      // As if l3 and l4 had been lost in a proxy cut: the client resumes after l2. On Kafka a new
      // member learns where its partition stands from the next event, so one follows.
      const again = await connect(stream.id, { 'Last-Event-ID': ids[1] });
      await waitMembers(stream.id, 1);
      await publish(platform.eventLog, tenant, [{ userId: u, mark: 'l5' }]);
      await again.waitFor((e) => e.event === 'data' && markOf(e) === 'l5');
      expect(marksOf(again)).toEqual(['l3', 'l4', 'l5']);
    });

    it('disconnects a client that stops reading (bounded buffering); the next member gets the rest', async () => {
      const stream = await createStream();
      const url = new URL(`${platform.baseUrl}/streams/${stream.id}/connect?token=${tenant.token}`);
      const socket = net.connect(Number(url.port), url.hostname);
      await once(socket, 'connect');
      socket.pause(); // never reads
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
      const socketClosed = once(socket, 'close');
      try {
        await waitMembers(stream.id, 1);
        const heapBefore = heapAfterGc();
        // ~20 MB: far beyond what loopback socket buffers hold, so the server must give up on it.
        const us = users(10);
        for (let round = 1; round <= 20; round++) {
          await publish(platform.eventLog, tenant, us.map((u) => ({ userId: u, mark: `${u}/${round}`, padding: 100_000 })));
        }
        await waitMembers(stream.id, 0);
        // The server's side holds no more than the cap per connection: no backlog of 30 MB in memory.
        expect(heapAfterGc() - heapBefore).toBeLessThan(16 * 1024 * 1024);
        await publish(platform.eventLog, tenant, [{ userId: us[0], mark: 'last' }]);
        const next = await connect(stream.id);
        // Each event is looked at once: rescanning 100 KB events on every arrival would be quadratic.
        let scanned = 0;
        let found = false;
        await eventually(async () => {
          for (; scanned < next.events.length && !found; scanned++) found = next.events[scanned].data.includes('"log_id":"last"');
          return found;
        }, 15_000);
        expect(next.events.filter((e) => e.event === 'data').length).toBeGreaterThan(1);
      } finally {
        socket.destroy();
        await socketClosed;
      }
    });

    it(`refuses more than ${MAX_MEMBERS} clients with 422 and Retry-After`, async () => {
      const stream = await createStream();
      for (let i = 0; i < MAX_MEMBERS; i++) await connect(stream.id);
      await waitMembers(stream.id, MAX_MEMBERS);
      const extra = await connectStream(platform.baseUrl, tenant, stream.id);
      expect(extra.status).toBe(422);
      expect(extra.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.parse(extra.errorBody!).errors[0]).toMatch(/maximum of 3 connected clients/);
      open.pop()!.close();
      await waitMembers(stream.id, MAX_MEMBERS - 1);
      const again = await connect(stream.id);
      expect(again.status).toBe(200);
    });
  });
}

function heapAfterGc(): number {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/** Each event of the round exactly once, each user on one client, in order, at least two clients busy. */
function isCleanSplit(clients: SseConnection[], us: string[], rounds: number[]): boolean {
  const all = clients.flatMap(marksOf);
  const expected = rounds.flatMap((r) => us.map((u) => `${u}/${r}`)).sort();
  if (JSON.stringify(all.slice().sort()) !== JSON.stringify(expected)) return false;
  const owner = new Map<string, number>();
  for (const [i, c] of clients.entries()) {
    const last = new Map<string, number>();
    for (const m of marksOf(c)) {
      const [u, r] = m.split('/');
      if ((owner.get(u) ?? i) !== i || Number(r) <= (last.get(u) ?? 0)) return false;
      owner.set(u, i);
      last.set(u, Number(r));
    }
  }
  return true;
}

function expectSplit(clients: SseConnection[], us: string[], round: number) {
  expect(isCleanSplit(clients, us, [round])).toBe(true);
  expect(clients.filter((c) => marksOf(c).length > 0).length).toBeGreaterThanOrEqual(2);
}

streamDeliverySuite(testRuntime());
