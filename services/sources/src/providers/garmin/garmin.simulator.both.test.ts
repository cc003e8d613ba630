/**
 * Garmin against its simulator and the whole platform, on this run's runtime (embedded, or real
 * Kafka, FerretDB and Redis): the provider simulator suite (history by backfill request, arriving
 * by ping), then what Garmin's documents ask beyond it: a ping whose callbackURL is not Garmin's
 * API is refused and fetches nothing; a push (data inline, unsigned) is a notice to pull the
 * upload window, its body never stored; a permission change is asked of Garmin with the user's
 * token and shown as missing_permissions; an unsigned
 * deregistration ends a connection only once Garmin refuses the user's token; a reconnect asks
 * Garmin for the gap only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { byRuntime, createTenant, eventually, Tenant, testRuntime, witnessLogs } from '@wellstream/testing';
import type { SimulatedUser } from '../../../test/simulators/provider-simulator';
import { providerAgainstSimulator } from '../../../test/provider-simulator.suite';
import { GarminSimulator } from './simulator/garmin-simulator';

const DAY = 24 * 3600 * 1000;
const postWithClientId = async (url: string, body: unknown, clientId: string) =>
  (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'garmin-client-id': clientId }, body: JSON.stringify(body) })).status;
const ymd = (d: Date) => d.toISOString().slice(0, 10);

function garminAsDocumented(mode: 'embedded' | 'distributed'): void {
  const sim = new GarminSimulator();
  let platform: TestPlatform;
  let tenant: Tenant;
  const webhook = () => `${platform.baseUrl}/sources/garmin/webhook`;

  async function newUser(label: string) {
    const res = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid: `${label}-${Date.now().toString(36)}`, location: { timezone: 'Europe/Berlin' } });
    expect(res.status).toBe(201);
    return res.body as { id: string; uid: string; marketplace: { url: string } };
  }
  const sourceOf = async (uid: string) => ((await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`)).body.sources as any[]).find((s) => s.type === 'garmin');

  async function connect(marketplaceUrl: string, who: SimulatedUser, action = 'connect'): Promise<string> {
    const start = await fetch(`${marketplaceUrl}/sources/garmin/${action}`, { method: 'POST', redirect: 'manual' });
    expect(start.status).toBe(303);
    const back = await fetch(sim.authorize(start.headers.get('location')!, who, 'allow'), { redirect: 'manual' });
    expect(back.status).toBe(303);
    return back.headers.get('location')!;
  }

  async function connected(label: string, days = 2) {
    const user = await newUser(label);
    const who = sim.createUser({ days, now: new Date() });
    expect(await connect(user.marketplace.url, who)).toContain('notice=connected.garmin');
    await eventually(async () => (await sourceOf(user.uid))?.backfill?.state === 'done', 60_000, 200);
    // A connect asks Garmin what the user shares (later counts in a case start after it).
    await eventually(async () => sim.permissionCalls(who) > 0, 30_000, 200);
    await sim.settled();
    return { user, who };
  }

  const workouts = async (uid: string) =>
    (await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}/workouts?start_date=${ymd(new Date(Date.now() - 3 * DAY))}&end_date=${ymd(new Date(Date.now() + DAY))}&source=garmin`)).body.data as any[];

  beforeAll(async () => {
    await sim.start();
    const env = {
      ...sim.env(),
      WELLSTREAM_SOURCE_BACKFILL_DAYS: '2',
      WELLSTREAM_SOURCE_POLL_INTERVAL_S: '600',
      WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100',
      WELLSTREAM_SOURCE_GARMIN_RATE_LIMITS: '100000/1m',
    };
    platform = await startTestPlatform({ mode, env, label: 'sources-garmin-docs' });
    tenant = await createTenant(platform.baseUrl);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await sim.stop();
  });

  it('refuses a ping whose callbackURL is not Garmin\'s API (401) and fetches nothing', async () => {
    const { user, who } = await connected('foreign');
    // Another server on this machine, as an attacker would aim us at it: it must never be called.
    let hits = 0;
    const victim = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => victim.listen(0, '127.0.0.1', resolve));
    const victimUrl = `http://127.0.0.1:${(victim.address() as AddressInfo).port}`;
    try {
      const pull = (origin: string, path = '/wellness-api/rest/activities') => `${origin}${path}?uploadStartTimeInSeconds=1700000000&uploadEndTimeInSeconds=1700000100&token=t`;
      for (const callbackURL of [pull(victimUrl), pull(sim.url, '/wellness-api/rest/user/registration'), pull(sim.url.replace('127.0.0.1', 'localhost')), 'file:///etc/passwd']) {
        expect(await sim.post(webhook(), { activities: [{ userId: who.providerUserId, callbackURL }] })).toBe(401);
      }
      // One foreign entry among good ones refuses the whole delivery: the good one is not fetched either.
      const [id] = sim.addData(who, 'activities', new Date(Date.now() - 60_000));
      expect(await sim.post(webhook(), { sleeps: [{ userId: who.providerUserId, callbackURL: pull(victimUrl, '/wellness-api/rest/sleeps') }], activities: [{ userId: who.providerUserId, callbackURL: pull(sim.url) }] })).toBe(401);
      await new Promise((r) => setTimeout(r, 1500));
      expect(hits).toBe(0);
      expect((await workouts(user.uid)).some((w) => w.log_id === id)).toBe(false);
      expect(await sourceOf(user.uid)).toMatchObject({ status: 'active' });
      // Garmin's own ping for it is fetched.
      expect(await sim.notify(webhook(), who, 'activities')).toBe(200);
      await eventually(async () => (await workouts(user.uid)).some((w) => w.log_id === id), 30_000, 200);
    } finally {
      await new Promise((resolve) => victim.close(resolve));
    }
  }, 120_000);

  it('takes a push as a notice: pulls the upload window from Garmin with our token, never stores the body', async () => {
    const { user, who } = await connected('push');
    sim.endpointMode = 'push';
    try {
      const [id] = sim.addData(who, 'activities', new Date(Date.now() - 60_000));
      const body = sim.pushBody(who, 'activities') as { activities: Record<string, unknown>[] };
      const real = body.activities[0].distanceInMeters as number;
      // What the body says is not what is stored: a forger's values (or a stale copy) never land.
      body.activities[0] = { ...body.activities[0], distanceInMeters: real + 12_345, activityName: 'forged' };
      body.activities.push({ userId: who.providerUserId, summaryId: 'invented', activityType: 'RUNNING', startTimeInSeconds: Math.floor(Date.now() / 1000) - 600, durationInSeconds: 300 });
      expect(await sim.post(webhook(), body)).toBe(200);
      const stored = await eventually(async () => (await workouts(user.uid)).find((w) => w.log_id === id), 30_000, 200);
      expect(stored.name).not.toBe('forged');
      expect((await workouts(user.uid)).some((w) => String(w.log_id).includes('invented'))).toBe(false);
      // A push naming a user we do not hold fetches nothing.
      const pulls = sim.pushPulls;
      expect(pulls).toBeGreaterThan(0);
      expect(await sim.post(webhook(), { activities: [{ userId: 'nobody-we-know', summaryId: 'q', startTimeInSeconds: 1, durationInSeconds: 1 }] })).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      expect(sim.pushPulls).toBe(pulls);
    } finally {
      sim.endpointMode = 'ping';
    }
    expect(await sim.post(webhook(), [1, 2])).toBe(400);
    expect(await sim.post(webhook(), { activities: 'x' })).toBe(400);
  }, 120_000);

  it('follows a permission withdrawn and given back in Garmin Connect, as Garmin answers it to the user\'s token', async () => {
    const { user, who } = await connected('perms');
    const card = async () => ((await (await fetch(user.marketplace.url, { headers: { accept: 'application/json' } })).json()) as any).sources.find((s: any) => s.type === 'garmin');
    const asked0 = sim.permissionCalls(who);
    expect(await sim.changePermissions(webhook(), who, ['ACTIVITY_EXPORT', 'HISTORICAL_DATA_EXPORT'])).toBe(200);
    await eventually(async () => sim.permissionCalls(who) > asked0, 30_000, 200);
    await eventually(async () => (await card())?.missing_permissions?.join() === 'HEALTH_EXPORT', 30_000, 200);
    await eventually(async () => (await sourceOf(user.uid))?.missing_permissions?.join() === 'HEALTH_EXPORT', 30_000, 200);
    expect((await card()).missing_permissions).toEqual(['HEALTH_EXPORT']);
    expect(await (await fetch(user.marketplace.url)).text()).toContain('permissions not granted: <code>HEALTH_EXPORT</code>');
    expect(await sim.changePermissions(webhook(), who, ['ACTIVITY_EXPORT', 'HEALTH_EXPORT', 'HISTORICAL_DATA_EXPORT'])).toBe(200);
    await eventually(async () => (await sourceOf(user.uid))?.missing_permissions === undefined, 30_000, 200);
    expect((await card()).missing_permissions).toBeUndefined();
    // A notice whose list Garmin does not confirm changes nothing: the answer to the token is what counts.
    const asked = sim.permissionCalls(who);
    expect(await sim.post(webhook(), { userPermissionsChange: [{ userId: who.providerUserId, summaryId: 'f', permissions: [], changeTimeInSeconds: 1 }] })).toBe(200);
    await eventually(async () => sim.permissionCalls(who) > asked, 30_000, 200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await sourceOf(user.uid))?.missing_permissions).toBeUndefined();
  }, 120_000);

  it('shows from the connect on a permission the user does not share (historical data is off unless switched on)', async () => {
    const user = await newUser('perms-at-connect');
    const who = sim.createUser({ days: 2, now: new Date() });
    sim.sharePermissions(who, ['ACTIVITY_EXPORT', 'HEALTH_EXPORT']);
    expect(await connect(user.marketplace.url, who)).toContain('notice=connected.garmin');
    await eventually(async () => (await sourceOf(user.uid))?.missing_permissions?.join() === 'HISTORICAL_DATA_EXPORT', 30_000, 200);
    // On the distributed runtime the marketplace's view may trail the user's record by a moment.
    const card = async () => ((await (await fetch(user.marketplace.url, { headers: { accept: 'application/json' } })).json()) as any).sources.find((s: any) => s.type === 'garmin');
    await eventually(async () => (await card())?.missing_permissions !== undefined, 30_000, 200);
    expect((await card()).missing_permissions).toEqual(['HISTORICAL_DATA_EXPORT']);
    // The connection still reads what is shared.
    await eventually(async () => (await sourceOf(user.uid))?.backfill?.state === 'done', 60_000, 200);
    expect((await sourceOf(user.uid))?.status).toBe('active');
  }, 120_000);

  it('asks Garmin what is shared when it refuses a read, and reads no more of what the user withdrew', async () => {
    const { user, who } = await connected('perms-refused');
    // Withdrawn without a notice reaching us (lost, or not yet sent): the first refusal tells.
    sim.sharePermissions(who, ['ACTIVITY_EXPORT', 'HISTORICAL_DATA_EXPORT']);
    sim.addData(who, 'dailies', new Date(Date.now() - 60_000));
    expect(await sim.notify(webhook(), who, 'dailies')).toBe(200);
    await eventually(async () => (await sourceOf(user.uid))?.missing_permissions?.join() === 'HEALTH_EXPORT', 30_000, 200);
    expect((await sourceOf(user.uid))?.status).toBe('active');
    // A later ping for a health summary is not fetched; activities still are.
    sim.addData(who, 'sleeps', new Date(Date.now() - 30_000));
    expect(await sim.notify(webhook(), who, 'sleeps')).toBe(200);
    const [id] = sim.addData(who, 'activities', new Date(Date.now() - 30_000));
    expect(await sim.notify(webhook(), who, 'activities')).toBe(200);
    await eventually(async () => (await workouts(user.uid)).some((w) => w.log_id === id), 30_000, 200);
    expect(sim.refusedPulls(who)).toBe(1);
  }, 120_000);

  it('refuses forged or malformed permission notices and asks Garmin nothing for them or for users it does not hold', async () => {
    const { who } = await connected('perms-bad');
    const asked = sim.permissionCalls(who);
    expect(await sim.post(webhook(), { userPermissionsChange: [{ userId: who.providerUserId, permissions: 'ALL' }] })).toBe(400);
    expect(await sim.post(webhook(), { userPermissionsChange: [{ permissions: ['HEALTH_EXPORT'] }] })).toBe(400);
    expect(await sim.post(webhook(), { userPermissionsChange: 'x' })).toBe(400);
    const other = await postWithClientId(webhook(), { userPermissionsChange: [{ userId: who.providerUserId, permissions: [] }] }, 'another-app');
    expect(other).toBe(401);
    expect(await sim.post(webhook(), { userPermissionsChange: [{ userId: 'nobody-we-know', permissions: [] }] })).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(sim.permissionCalls(who)).toBe(asked);
  }, 120_000);

  it('keeps a connection when a deregistration arrives while Garmin still accepts the token', async () => {
    const { user, who } = await connected('forged-dereg');
    expect(await sim.post(webhook(), { deregistrations: [{ userId: who.providerUserId }] })).toBe(200);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await sourceOf(user.uid)).toMatchObject({ status: 'active' });
    // …and pings go on bringing data.
    const [id] = sim.addData(who, 'activities', new Date(Date.now() - 30_000));
    expect(await sim.notify(webhook(), who, 'activities')).toBe(200);
    await eventually(async () => (await workouts(user.uid)).some((w) => w.log_id === id), 30_000, 200);
  }, 120_000);

  it('ends a connection when the user really withdrew access in Garmin Connect', async () => {
    const { user, who } = await connected('dereg');
    const witness = witnessLogs(user.id, who.providerUserId);
    try {
      sim.auth.deregister(who.providerUserId);
      expect(await sim.post(webhook(), { deregistrations: [{ userId: who.providerUserId }] })).toBe(200);
      await eventually(async () => !(await sourceOf(user.uid)), 90_000, 200).catch(witness.explain);
    } finally {
      witness.stop();
    }
  }, 180_000);

  it('ends a connection whose token Garmin refused before the deregistration arrived', async () => {
    const { user, who } = await connected('dereg-late');
    sim.auth.deregister(who.providerUserId);
    // A ping's fetch finds the token refused first: the connection waits for a reconnect…
    sim.addData(who, 'activities', new Date(Date.now() - 30_000));
    expect(await sim.notify(webhook(), who, 'activities')).toBe(200);
    await eventually(async () => (await sourceOf(user.uid))?.status === 'auth_expired', 45_000, 200);
    // …until the deregistration says the user withdrew access: then it ends.
    expect(await sim.post(webhook(), { deregistrations: [{ userId: who.providerUserId }] })).toBe(200);
    await eventually(async () => !(await sourceOf(user.uid)), 45_000, 200);
  }, 120_000);

  it('asks Garmin only for the gap on a reconnect', async () => {
    const { user, who } = await connected('gap', 4);
    const first = sim.backfillRequests.filter(([u]) => u === who.providerUserId).length;
    expect(first).toBeGreaterThan(0);
    sim.revokeGrant(who);
    sim.expireAccessTokens(who);
    sim.addData(who, 'activities', new Date());
    await sim.notify(webhook(), who, 'activities');
    await eventually(async () => (await sourceOf(user.uid))?.status === 'auth_expired', 45_000, 200);
    const reconnectAt = Date.now();
    expect(await connect(user.marketplace.url, who, 'reconnect')).toContain('notice=reconnected.garmin');
    await eventually(async () => sim.backfillRequests.filter(([u]) => u === who.providerUserId).length > first, 30_000, 200);
    await eventually(async () => (await sourceOf(user.uid))?.status === 'active', 30_000, 200);
    // The gap is the time since the last sync with a day of overlap: never the first connect's history again.
    const again = sim.backfillRequests.filter(([u]) => u === who.providerUserId).slice(first);
    for (const [, , start] of again) expect(start * 1000).toBeGreaterThanOrEqual(reconnectAt - 2 * DAY - 60_000);
  }, 180_000);
}

jest.setTimeout(byRuntime({ embedded: 240_000, distributed: 300_000 }));

describe(`Garmin (${testRuntime()})`, () => providerAgainstSimulator(() => new GarminSimulator(), { mode: testRuntime(), revokes: true, live: 'notify', liveResource: { name: 'activities', path: 'workout' } }));

describe(`Garmin as its documents say (${testRuntime()})`, () => garminAsDocumented(testRuntime()));
