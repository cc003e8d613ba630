/**
 * The provider simulator suite: one provider's simulator against the whole platform, exactly as a
 * user and a customer meet it. Connect through the marketplace (303 to the authorize URL, the
 * provider's consent, the callback back to the marketplace), a refused state, the backfill landing
 * on REST and as events, a notification (or a poll) bringing its record within seconds, a forged
 * notification, token expiry and refresh, provider rate limits and outages that never expire a
 * connection, a revoked grant and `auth_expired`, reconnect, disconnect with revoke, and a restart
 * in the middle of a backfill. Runs for every provider on both runtimes.
 */
import { eventually } from '@wellstream/testing';
import type { ProviderSimulator, SimulatedUser } from './simulators/provider-simulator';
import { SimulatorPlatform, startSimulatorPlatform } from './simulator-platform';
import { notificationCases } from './provider-simulator-notifications';

export interface SimulatorSuiteOptions {
  mode: 'embedded' | 'distributed';
  /** The provider revokes tokens on disconnect (it documents an endpoint). */
  revokes: boolean;
  /** Whether the provider refreshes tokens (Polar's last about a year and cannot be refreshed). */
  refreshes?: boolean;
  /** How the platform learns of new data: a notification, or its poll. */
  live: 'notify' | 'poll';
  /** A resource to add data to for the live test, and the record type its records have. */
  liveResource: { name: string; path: string };
  /**
   * Notifications name objects (the simulator has editData): `late`, a resource logged days after
   * it happened, and `edited`, resources an edit of an old object announces (one notification each).
   */
  oldObjects?: { late: string; edited: string[] };
  /** Signed notifications (the simulator has notifyRetry, redeliver and objectFetches): retries and repeats of liveResource. */
  signedRetries?: boolean;
}

const DAY = 24 * 3600 * 1000;
const BACKFILL_DAYS = 10;
// cgm records have no REST path (the interface lists none): they are read from the `data` events.
const PATHS: Record<string, string> = { measurement: 'measurements', nutrition: 'nutrition', sleep: 'sleep', summary: 'summaries', workout: 'workouts', intraday: 'intraday' };
const ymd = (d: Date) => d.toISOString().slice(0, 10);

export function providerAgainstSimulator(makeSimulator: () => ProviderSimulator, o: SimulatorSuiteOptions): void {
  let sim: ProviderSimulator;
  let p: SimulatorPlatform;
  const type = () => sim.type;
  const newUser = (label: string) => p.newUser(label);
  const sourceOf = (uid: string) => p.sourceOf(uid);
  const connect = (marketplaceUrl: string, who: SimulatedUser, action = 'connect', decision: 'allow' | 'deny' = 'allow') => p.connect(marketplaceUrl, who, action, decision);

  async function records(user: { id: string; uid: string }, recordType: string, from: Date, to: Date): Promise<any[]> {
    const uid = user.uid;
    if (!PATHS[recordType]) {
      const latest = new Map<string, any>();
      for (const e of p.events.events) if (e.event_type === 'data' && e.user_id === user.id && e.resource === recordType) latest.set(e.payload.id, e.payload);
      return [...latest.values()].filter((r) => !r.deleted_at && r.start_time >= from.toISOString() && r.start_time < to.toISOString());
    }
    const out: any[] = [];
    for (let start = from; start < to; start = new Date(start.getTime() + 29 * DAY)) {
      const end = new Date(Math.min(start.getTime() + 28 * DAY, to.getTime()));
      const res = await p.tenant.api.get(`/organizations/${p.tenant.organizationId}/users/${uid}/${PATHS[recordType]}?start_date=${ymd(start)}&end_date=${ymd(end)}&source=${type()}`);
      expect(res.status).toBe(200);
      out.push(...res.body.data);
    }
    return out;
  }

  beforeAll(async () => {
    sim = makeSimulator();
    p = await startSimulatorPlatform(sim, {
      mode: o.mode,
      label: `sources-${sim.type}`,
      env: {
        WELLSTREAM_SOURCE_BACKFILL_DAYS: String(BACKFILL_DAYS),
        // Providers with notifications are polled 4× less often (20 s here): that poll is how a
        // revoked grant is noticed when the provider stops notifying (WHOOP does).
        WELLSTREAM_SOURCE_POLL_INTERVAL_S: o.live === 'poll' ? '2' : '5',
        WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100',
        // The suite runs weeks of a user's syncing in seconds: more than the providers' documented
        // limits allow (Strava's 100 per 15 minutes), as an application granted a raised quota.
        [`WELLSTREAM_SOURCE_${sim.type.toUpperCase()}_RATE_LIMITS`]: '100000/1m',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await p?.stop();
  });

  it('connects through the marketplace, backfills history to REST and announces it', async () => {
    const user = await newUser('contract');
    const now = new Date();
    const who = sim.createUser({ days: BACKFILL_DAYS + 2, now });
    const landed = await connect(user.marketplace.url, who);
    expect(landed).toBe(`${user.marketplace.url}?notice=${encodeURIComponent(`connected.${type()}`)}`);
    // 60 s: on Kafka the recorder's first read of the topic waits for its consumer to start.
    await p.events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'connected', 60_000);
    const source = await eventually(async () => {
      const s = await sourceOf(user.uid);
      return s?.backfill?.state === 'done' && s;
    }, 60_000, 200);
    expect(source.status).toBe('active');
    expect(source.last_synced_at).toBeTruthy();
    // The event leaves through the users service's outbox after the change it announces.
    const completed = await p.events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'backfill_completed', 15_000);
    expect(completed.payload.range.start).toBeTruthy();
    expect(completed.payload.resource).toBeTruthy();
    // Every record type the provider's data maps to is on REST, as many as the simulator holds
    // (the window's first and last day may be fetched whole: bounds, not an exact count there).
    const inner = sim.expectedCounts(who, new Date(now.getTime() - (BACKFILL_DAYS - 1) * DAY), new Date(now.getTime() - DAY));
    const outer = sim.expectedCounts(who, new Date(now.getTime() - (BACKFILL_DAYS + 2) * DAY), new Date(now.getTime() + DAY));
    const from = new Date(now.getTime() - (BACKFILL_DAYS + 2) * DAY);
    const to = new Date(now.getTime() + 2 * DAY);
    await eventually(async () => {
      for (const [recordType, min] of Object.entries(inner)) {
        const got = (await records(user, recordType, from, to)).length;
        // Thrown, so a timeout says what was held against what was expected.
        if (got < (min ?? 0) || got > (outer[recordType] ?? 0)) throw new Error(`${recordType}: ${got} stored, expected ${min}–${outer[recordType]}`);
      }
      return true;
    }, 60_000, 500);
    expect(Object.keys(inner).length).toBeGreaterThan(0);
    const data = await p.events.waitFor((e) => e.event_type === 'data' && e.user_id === user.id, 15_000);
    expect(data.payload.source.type).toBe(type());
  }, 180_000);

  it('refuses a replayed, forged or foreign state with a 400 page and stores nothing', async () => {
    const user = await newUser('state');
    const who = sim.createUser({ days: 1, now: new Date() });
    const start = await fetch(`${user.marketplace.url}/sources/${type()}/connect`, { method: 'POST', redirect: 'manual' });
    const callback = new URL(sim.authorize(start.headers.get('location')!, who, 'allow'));
    const forged = new URL(callback);
    forged.searchParams.set('state', `${callback.searchParams.get('state')!.slice(0, -3)}abc`);
    const forgedRes = await fetch(forged, { redirect: 'manual' });
    expect(forgedRes.status).toBe(400);
    expect(forgedRes.headers.get('content-type')).toMatch(/text\/html/);
    const good = await fetch(callback, { redirect: 'manual' });
    expect(good.status).toBe(303);
    const replay = await fetch(callback, { redirect: 'manual' });
    expect(replay.status).toBe(400);
    const other = await fetch(`${p.baseUrl}/sources/${type()}/callback?code=x&state=nonsense`, { redirect: 'manual' });
    expect(other.status).toBe(400);
    const denied = await connect(user.marketplace.url, who, 'connect', 'deny');
    expect(denied).toContain(`notice=${encodeURIComponent(`denied.${type()}`)}`);
  }, 60_000);

  it('brings new data within seconds, refreshes an expired token, and rides out rate limits and outages', async () => {
    const user = await newUser('live');
    const who = sim.createUser({ days: 2, now: new Date() });
    await connect(user.marketplace.url, who);
    await eventually(async () => (await sourceOf(user.uid))?.backfill?.state === 'done', 60_000, 200);
    const refreshesBefore = sim.stats(who).refreshes;
    const window = () => records(user, o.liveResource.path, new Date(Date.now() - 2 * DAY), new Date(Date.now() + DAY));
    // Four rounds: an expired token, then an unreadable answer, a rate limit and an outage on the
    // next data call; each is ridden out (refresh, retry, wait) and none expires the connection.
    const rounds: [string, () => void][] = [
      ['an expired token', () => o.refreshes !== false && sim.expireAccessTokens(who)],
      ['an unreadable answer', () => sim.failNext(1, 'garbage')],
      ['a 429 with Retry-After', () => sim.failNext(1, 429, 1)],
      ['a 503', () => sim.failNext(1, 503)],
    ];
    for (const [round, [what, fault]] of rounds.entries()) {
      // A new item may extend a record that already exists (an hour of CGM readings): wait for a new version.
      const before = new Map((await window()).map((r) => [r.log_id, r.checksum]));
      fault();
      // Each round's item a minute and a half apart: the same content at the same time under another
      // id would be a same-source duplicate (stored once), not new data.
      const logIds = sim.addData(who, o.liveResource.name, new Date(Date.now() - round * 90_000));
      if (o.live === 'notify') expect(await sim.notify!(`${p.baseUrl}/sources/${type()}/webhook`, who, o.liveResource.name)).toBeLessThan(300);
      const t0 = Date.now();
      await eventually(async () => {
        const got = await window();
        return logIds.every((id) => got.some((r) => r.log_id === id && r.checksum !== before.get(id)));
      }, 45_000, 200);
      console.log(`[contract ${type()} ${o.mode}] new data on REST ${Date.now() - t0} ms after the ${o.live}, through ${what}`);
    }
    if (o.refreshes !== false) expect(sim.stats(who).refreshes).toBeGreaterThan(refreshesBefore);
    expect((await sourceOf(user.uid)).status).toBe('active');
    if (sim.notifyForged) {
      const forged = await sim.notifyForged(`${p.baseUrl}/sources/${type()}/webhook`, who, o.liveResource.name);
      expect([200, 204, 401]).toContain(forged);
    }
  }, 200_000);

  it('expires a connection whose grant was revoked, reconnects it, then disconnects and revokes', async () => {
    const user = await newUser('revoke');
    const who = sim.createUser({ days: 2, now: new Date() });
    await connect(user.marketplace.url, who);
    await eventually(async () => (await sourceOf(user.uid))?.backfill?.state === 'done', 60_000, 200);
    sim.revokeGrant(who);
    sim.expireAccessTokens(who);
    sim.addData(who, o.liveResource.name, new Date());
    // Some providers notify no more once access is revoked (the simulator refuses): the poll finds it.
    if (o.live === 'notify') await sim.notify!(`${p.baseUrl}/sources/${type()}/webhook`, who, o.liveResource.name).catch(() => undefined);
    await eventually(async () => (await sourceOf(user.uid))?.status === 'auth_expired', 45_000, 200);
    await p.events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'auth_expired', 15_000);
    const view: any = await (await fetch(user.marketplace.url, { headers: { accept: 'application/json' } })).json();
    expect(view.sources.find((s: any) => s.type === type()).actions.reconnect).toBeTruthy();

    const back = await connect(user.marketplace.url, who, 'reconnect');
    expect(back).toContain(`notice=${encodeURIComponent(`reconnected.${type()}`)}`);
    await p.events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'reconnected', 15_000);
    await eventually(async () => (await sourceOf(user.uid))?.status === 'active', 15_000, 200);

    const revokesBefore = sim.stats(who).revokes;
    const res = await fetch(`${user.marketplace.url}/sources/${type()}/disconnect`, { method: 'POST', headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    await p.events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'disconnected', 15_000);
    await eventually(async () => !(await sourceOf(user.uid)), 15_000, 200);
    if (o.revokes) expect(sim.stats(who).revokes).toBeGreaterThan(revokesBefore);
    const again = await fetch(`${user.marketplace.url}/sources/${type()}/disconnect`, { method: 'POST', headers: { accept: 'application/json' } });
    expect(again.status).toBe(404);
  }, 150_000);

  // Notifications naming old objects, signed retries and repeats (provider-simulator-notifications.ts).
  notificationCases(o, {
    sim: () => sim,
    webhookUrl: () => `${p.baseUrl}/sources/${type()}/webhook`,
    records,
    backfillDays: BACKFILL_DAYS,
    async connected(label, days) {
      const user = await newUser(label);
      const now = new Date();
      const who = sim.createUser({ days, now });
      await connect(user.marketplace.url, who);
      await eventually(async () => (await sourceOf(user.uid))?.backfill?.state === 'done', 60_000, 200);
      return { user, who, now };
    },
  });

  it('finishes a backfill that a restart interrupted', async () => {
    const user = await newUser('restart');
    const now = new Date();
    const who = sim.createUser({ days: BACKFILL_DAYS + 2, now });
    expect(await connect(user.marketplace.url, who)).toContain(`notice=${encodeURIComponent(`connected.${type()}`)}`);
    sim.failNext(1, 503); // the first chunk backs off, so the restart lands mid-way
    await p.restart();
    // A restarted platform listens on a new port; a simulator that sends on its own (Garmin's pings) must know.
    sim.webhookMoved?.(`${p.baseUrl}/sources/${type()}/webhook`);
    await eventually(async () => (await sourceOf(user.uid))?.backfill?.state === 'done', 120_000, 500);
    const inner = sim.expectedCounts(who, new Date(now.getTime() - (BACKFILL_DAYS - 1) * DAY), new Date(now.getTime() - DAY));
    // The backfill is done once everything is handed to records; storing follows a moment later.
    await eventually(async () => {
      for (const [recordType, min] of Object.entries(inner)) {
        if ((await records(user, recordType, new Date(now.getTime() - (BACKFILL_DAYS + 2) * DAY), new Date(now.getTime() + 2 * DAY))).length < (min ?? 0)) return false;
      }
      return true;
    }, 60_000, 500);
  }, 240_000);
}
