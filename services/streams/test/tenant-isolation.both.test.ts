/**
 * Customers are isolated in delivery: a stream and a replay read only their customer's slice of the
 * events topic, whatever another customer publishes meanwhile; a customer created while the
 * platform runs gets working streams at once; deleting a customer removes its slice; and a
 * customer's connections are capped (429 with Retry-After) so it cannot take the process from the
 * others. Run on both runtimes (embedded log, real Kafka).
 */
import { randomUUID } from 'node:crypto';
import { ApiClient, byRuntime, createTenant, eventually, SseConnection, Tenant, TEST_ADMIN_TOKEN, TestRuntime, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { customerEventsTopic } from '@wellstream/contracts';
import { connectReplay, connectStream, markOf, publish, sleep } from './stream-fixtures';
import { embeddedIsolation, kafkaIsolation, TenantIsolationOptions } from './tenant-isolation-runtimes';

const seqOf = (e: { json(): unknown }) => Number(markOf(e).split(':')[2]);

function tenantIsolationSuite(mode: TestRuntime, options: TenantIsolationOptions) {
  describe(`tenant isolation (${mode})`, () => {
    let platform: TestPlatform;
    const open: SseConnection[] = [];
    const track = (c: SseConnection) => {
      open.push(c);
      return c;
    };

    beforeAll(async () => {
      platform = await startTestPlatform({
        mode,
        label: 'streams-tenants',
        env: { WELLSTREAM_POKE_INTERVAL_MS: '300', WELLSTREAM_REPLAY_MAX_PER_CUSTOMER: '1', WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER: '2', ...options.env },
      });
    });
    afterEach(() => {
      for (const c of open.splice(0)) c.close();
    });
    afterAll(async () => {
      await platform?.stop();
    });

    /** Each user's marks `<tenant>:<user>:<n>` must arrive as 0..count-1, in order. */
    const expectOwnInOrder = (c: SseConnection, label: string, users: string[], count: number) => {
      const data = c.events.filter((e) => e.event === 'data');
      for (const e of data) expect(markOf(e).startsWith(`${label}:`)).toBe(true);
      for (const u of users) {
        const mine = data.filter((e) => markOf(e).startsWith(`${label}:${u}:`)).map(seqOf);
        expect(mine).toEqual(Array.from({ length: count }, (_, i) => i));
      }
    };

    it("gives a customer's stream and replay exactly its own events, in order per user, while another customer floods the log", async () => {
      const heavy = await createTenant(platform.baseUrl, { name: 'Heavy' });
      const quiet = await createTenant(platform.baseUrl, { name: 'Quiet' });
      const stream = await quiet.api.post('/streams', { name: 'main' });
      expect(stream.status).toBe(201);
      const client = track(await connectStream(platform.baseUrl, quiet, stream.body.id));
      expect(client.status).toBe(200);
      await client.waitFor((e) => e.event === 'poke', 10_000);

      const quietUsers = ['q1', 'q2', 'q3'].map((u) => `${u}-${randomUUID().slice(0, 8)}`);
      const heavyUsers = Array.from({ length: 20 }, (_, i) => `h${i}-${randomUUID().slice(0, 8)}`);
      const perUser = 10;
      for (let n = 0; n < perUser; n++) {
        await publish(platform.eventLog, heavy, heavyUsers.flatMap((u) => Array.from({ length: 10 }, (_, k) => ({ userId: u, mark: `heavy:${u}:${n * 10 + k}` }))));
        await publish(platform.eventLog, quiet, quietUsers.map((u) => ({ userId: u, mark: `quiet:${u}:${n}` })));
      }
      const total = quietUsers.length * perUser;
      await eventually(async () => client.events.filter((e) => e.event === 'data').length >= total, 30_000);
      const replay = track(await connectReplay(platform.baseUrl, quiet));
      await eventually(async () => replay.events.filter((e) => e.event === 'data').length >= total, 30_000);
      await sleep(500);
      expectOwnInOrder(client, 'quiet', quietUsers, perUser);
      expectOwnInOrder(replay, 'quiet', quietUsers, perUser);
    });

    it('gives a customer created while the platform runs a working stream at once', async () => {
      const late = await createTenant(platform.baseUrl, { name: 'Late' });
      const stream = await late.api.post('/streams', { name: 'first' });
      expect(stream.status).toBe(201);
      const client = track(await connectStream(platform.baseUrl, late, stream.body.id));
      await client.waitFor((e) => e.event === 'poke', 10_000);
      const user = `u-${randomUUID()}`;
      await publish(platform.eventLog, late, [{ userId: user, mark: `late:${user}:0` }]);
      const got = await client.waitFor((e) => e.event === 'data', 30_000);
      expect(markOf(got)).toBe(`late:${user}:0`);
      // The stream's consumer lag is exported by the streams service.
      const streamsUrl = platform.services.find((s) => s.name === 'streams')!.url;
      const metrics = await (await fetch(`${streamsUrl}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`^stream_delivery_lag_seconds\\{[^}]*group="${stream.body.group}"[^}]*\\} \\d`, 'm'));
    });

    it("answers 429 with Retry-After past a customer's replay and stream-connection quotas, frees a replay's slot when it is cut off mid-way, and leaves other customers alone", async () => {
      const big = await createTenant(platform.baseUrl, { name: 'Big' });
      const other = await createTenant(platform.baseUrl, { name: 'Other' });
      const user = `u-${randomUUID()}`;
      for (let b = 0; b < 10; b++) {
        await publish(platform.eventLog, big, Array.from({ length: 200 }, (_, i) => ({ userId: `${user}-${i % 7}`, mark: `big:${b}:${i}`, padding: 500 })));
      }
      const first = track(await connectReplay(platform.baseUrl, big));
      expect(first.status).toBe(200);
      await first.waitFor((e) => e.event === 'data', 30_000);

      const refused = await big.api.get('/replay');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.body).toEqual({ message: expect.stringMatching(/at most 1 replay/) });
      const otherReplay = track(await connectReplay(platform.baseUrl, other));
      expect(otherReplay.status).toBe(200);

      // Cut off before the end of its 2,000 events: its reader stops and the slot is free again.
      first.close();
      const again = await eventually(async () => {
        const c = await connectReplay(platform.baseUrl, big);
        if (c.status === 200) return track(c);
        c.close();
        return undefined;
      }, 15_000, 200);
      expect(again.status).toBe(200);

      const streams = await Promise.all(['a', 'b', 'c'].map(async (name) => (await big.api.post('/streams', { name })).body.id as string));
      for (const id of streams.slice(0, 2)) expect(track(await connectStream(platform.baseUrl, big, id)).status).toBe(200);
      const third = await big.api.get(`/streams/${streams[2]}/connect`);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBeTruthy();
      expect(third.body).toEqual({ message: expect.stringMatching(/at most 2 stream connections/) });
    });

    it("keeps a stream's position for 7 days without any client, then resumes from it", async () => {
      const t = await createTenant(platform.baseUrl, { name: 'Away' });
      const stream = (await t.api.post('/streams', { name: 'main' })).body;
      const user = `u-${randomUUID()}`;
      const first = track(await connectStream(platform.baseUrl, t, stream.id));
      await first.waitFor((e) => e.event === 'poke', 10_000);
      await publish(platform.eventLog, t, [{ userId: user, mark: `away:${user}:0` }]);
      await first.waitFor((e) => e.event === 'data', 30_000);
      first.close();
      await eventually(async () => (await t.api.get(`/streams/${stream.id}`)).body.members === 0, 30_000, 200);

      await options.positions.passDays(platform, 8);
      await publish(platform.eventLog, t, [{ userId: user, mark: `away:${user}:1` }]);
      const back = track(await connectStream(platform.baseUrl, t, stream.id));
      await back.waitFor((e) => e.event === 'data' && markOf(e) === `away:${user}:1`, 30_000);
      await sleep(500);
      // `:0` may come again first: the last client was written it in its last seconds, and the
      // server cannot tell whether it read it (at least once). Nothing older, nothing twice.
      const marks = back.events.filter((e) => e.event === 'data').map((e) => markOf(e));
      expect([[`away:${user}:1`], [`away:${user}:0`, `away:${user}:1`]]).toContainEqual(marks);
    });

    it("deletes a customer: its tokens stop working and its slice of the events topic is removed", async () => {
      const gone = await createTenant(platform.baseUrl, { name: 'Gone' });
      const user = `u-${randomUUID()}`;
      await publish(platform.eventLog, gone, [{ userId: user, mark: `gone:${user}:0` }]);
      const probe = options.probe?.();
      if (probe) expect(await probe.exists(gone.customerId)).toBe(true);
      const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);

      const del = await admin.delete(`/admin/customers/${gone.customerId}`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ id: gone.customerId, deleted_at: expect.any(String) });
      expect((await gone.api.get('/streams')).status).toBe(401);
      expect((await admin.delete(`/admin/customers/${gone.customerId}`)).status).toBe(404);
      expect((await admin.post(`/admin/customers/${gone.customerId}/tokens`, {})).status).toBe(404);
      expect((await admin.delete(`/admin/customers/cus_${'0'.repeat(24)}`)).status).toBe(404);
      if (probe) expect(await probe.exists(gone.customerId)).toBe(false);
      else expect(await readSlice(platform, gone)).toEqual([]);
    });
  });
}

/** Everything left in a customer's slice (embedded: read straight from the log). */
async function readSlice(platform: TestPlatform, tenant: Tenant): Promise<string[]> {
  const seen: string[] = [];
  let caughtUp = false;
  const sub = await platform.eventLog.tail({
    topic: customerEventsTopic.spec.name,
    tenant: tenant.customerId,
    handle: async (m) => void seen.push(m.key),
    onCaughtUp: () => (caughtUp = true),
  });
  await eventually(async () => caughtUp);
  await sub.stop();
  return seen;
}

jest.setTimeout(byRuntime({ embedded: 60_000, distributed: 120_000 }));
tenantIsolationSuite(testRuntime(), byRuntime({ embedded: embeddedIsolation, distributed: kafkaIsolation })());
