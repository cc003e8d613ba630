/**
 * Strava against its simulator and the whole platform, on this run's runtime (embedded, or real
 * Kafka, FerretDB and Redis): the provider simulator suite
 * (services/sources/test/provider-simulator.suite.ts), then what Strava's documents ask beyond it: a live event brings the activity's energy (the detailed
 * activity's `calories`); the athlete's choices on the consent page are checked (no activity scope:
 * no connection and the reason in words; private activities refused: connected, with
 * `missing_permissions`); an unsigned deauthorization ends a connection only when Strava refuses the
 * athlete's token; and after a restart the push subscription is made again within seconds even when
 * the first calls fail.
 */
import { byRuntime, eventually, testRuntime } from '@wellstream/testing';
import type { SimulatedUser } from '../../../test/simulators/provider-simulator';
import { providerAgainstSimulator } from '../../../test/provider-simulator.suite';
import { SimulatorPlatform, startSimulatorPlatform } from '../../../test/simulator-platform';
import { StravaSimulator } from './simulator/strava-simulator';

const DAY = 24 * 3600 * 1000;
const ymd = (d: Date) => d.toISOString().slice(0, 10);

function stravaAsDocumented(mode: 'embedded' | 'distributed'): void {
  let p: SimulatorPlatform;
  const sim = () => p.sim as StravaSimulator;
  const webhook = () => `${p.baseUrl}/sources/strava/webhook`;
  const newUser = (label: string) => p.newUser(label);
  const sourceOf = (uid: string) => p.sourceOf(uid);
  /** Marketplace → Strava's consent page → callback; answers where the browser ends. */
  const connect = (marketplaceUrl: string, who: SimulatedUser, action = 'connect') => p.connect(marketplaceUrl, who, action);

  async function connected(label: string) {
    const user = await newUser(label);
    const who = sim().createUser({ days: 2, now: new Date() });
    expect(await connect(user.marketplace.url, who)).toContain('notice=connected.strava');
    await eventually(async () => (await sourceOf(user.uid))?.backfill?.state === 'done', 60_000, 200);
    // Strava posts events only to a subscription: the first connect makes it.
    await eventually(async () => sim().subscriptions().length === 1, 30_000, 200);
    return { user, who };
  }

  const workouts = async (uid: string) =>
    (await p.tenant.api.get(`/organizations/${p.tenant.organizationId}/users/${uid}/workouts?start_date=${ymd(new Date(Date.now() - 3 * DAY))}&end_date=${ymd(new Date(Date.now() + DAY))}&source=strava`)).body.data as any[];

  beforeAll(async () => {
    p = await startSimulatorPlatform(new StravaSimulator(), {
      mode,
      label: 'sources-strava-docs',
      env: {
        WELLSTREAM_SOURCE_BACKFILL_DAYS: '3',
        WELLSTREAM_SOURCE_POLL_INTERVAL_S: '600',
        WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100',
        WELLSTREAM_SOURCE_STRAVA_REQUESTS_PER_MINUTE: '100000',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await p?.stop();
  });

  it('stores the energy of an activity a live event names (the detailed activity\'s calories)', async () => {
    const { user, who } = await connected('energy');
    const [id] = sim().addData(who, 'activities', new Date(Date.now() - 60_000));
    expect(await sim().notify(webhook(), who, 'activities')).toBe(200);
    const workout = await eventually(async () => (await workouts(user.uid)).find((w) => w.log_id === id), 30_000, 200);
    const energy = workout.metrics.find((m: any) => m.type === 'energy_burned');
    expect(energy).toMatchObject({ unit: 'kcal', value: sim().caloriesOf(who, id) });
  }, 120_000);

  it('does not connect an athlete who unticked activity access, and says why on the marketplace', async () => {
    const user = await newUser('unticked');
    const who = sim().createUser({ days: 2, now: new Date() });
    sim().untick(who, ['activity:read_all', 'activity:read']);
    const landed = await connect(user.marketplace.url, who);
    expect(landed).toBe(`${user.marketplace.url}?notice=${encodeURIComponent('no_data.strava')}`);
    const page = await (await fetch(landed)).text();
    expect(page).toContain('Strava was not connected: you did not allow it to share any of your data.');
    // Nothing was connected: no entry, no connected event, the grant handed back.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sourceOf(user.uid)).toBeUndefined();
    expect(p.events.events.some((e) => e.event_type === 'connection' && e.user_id === user.id)).toBe(false);
    expect(sim().stats(who).revokes).toBe(1);
  }, 60_000);

  it('connects an athlete who refused private activities, naming the refused permission', async () => {
    const user = await newUser('partial');
    const who = sim().createUser({ days: 2, now: new Date() });
    sim().untick(who, ['activity:read_all']);
    expect(await connect(user.marketplace.url, who)).toContain('notice=connected.strava');
    const source = await eventually(async () => {
      const s = await sourceOf(user.uid);
      return s?.backfill?.state === 'done' && s;
    }, 60_000, 200);
    expect(source).toMatchObject({ status: 'active', missing_permissions: ['activity:read_all'] });
    const view: any = await (await fetch(user.marketplace.url, { headers: { accept: 'application/json' } })).json();
    const card = view.sources.find((s: any) => s.type === 'strava');
    expect(card.missing_permissions).toEqual(['activity:read_all']);
    expect(card.actions.reconnect).toBeTruthy();
    expect(await (await fetch(user.marketplace.url)).text()).toContain('permissions not granted: <code>activity:read_all</code>');
    // Granting it on a reconnect clears it.
    expect(await connect(user.marketplace.url, who, 'reconnect')).toContain('notice=reconnected.strava');
    await eventually(async () => (await sourceOf(user.uid))?.missing_permissions === undefined, 15_000, 200);
    // A reconnect that grants no data leaves the connection as it was (its grant is not handed back).
    const revokes = sim().stats(who).revokes;
    sim().untick(who, ['activity:read_all', 'activity:read']);
    expect(await connect(user.marketplace.url, who, 'reconnect')).toContain('notice=no_data.strava');
    expect(sim().stats(who).revokes).toBe(revokes);
    expect(await sourceOf(user.uid)).toMatchObject({ status: 'active' });
  }, 120_000);

  it('keeps a connection when a forged deauthorization arrives while the athlete\'s token works', async () => {
    const { user, who } = await connected('forged');
    const checks = sim().athleteCalls.get(who.providerUserId);
    expect(await sim().notifyForgedDeauthorization(webhook(), who)).toBe(200);
    // The platform asks Strava with the athlete's own token before acting.
    await eventually(async () => sim().athleteCalls.get(who.providerUserId) > checks, 15_000, 100);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await sourceOf(user.uid)).toMatchObject({ status: 'active' });
    expect(p.events.events.some((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'disconnected')).toBe(false);
    // …and live events go on arriving.
    const [id] = sim().addData(who, 'activities', new Date(Date.now() - 30_000));
    expect(await sim().notify(webhook(), who, 'activities')).toBe(200);
    await eventually(async () => (await workouts(user.uid)).some((w) => w.log_id === id), 30_000, 200);
  }, 120_000);

  it('ends a connection when the athlete really deauthorized (Strava answers the token with 401)', async () => {
    const { user, who } = await connected('deauth');
    expect(await sim().notifyDeauthorization(webhook(), who)).toBe(200);
    await p.events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'disconnected', 30_000);
    await eventually(async () => !(await sourceOf(user.uid)), 15_000, 200);
  }, 120_000);

  it('makes the push subscription again right after a restart, even when Strava first refuses', async () => {
    await connected('restart');
    await p.restart(() => {
      // While we were down the subscription went, and Strava's first answers to us are errors.
      sim().dropSubscription();
      sim().failSubscriptionCalls(2, 503);
    });
    const t0 = Date.now();
    await eventually(async () => sim().subscriptions().length === 1, 60_000, 200);
    console.log(`[strava ${mode}] push subscription made again ${Date.now() - t0} ms after the restart`);
  }, 240_000);
}

jest.setTimeout(byRuntime({ embedded: 240_000, distributed: 300_000 }));

describe(`Strava (${testRuntime()})`, () => providerAgainstSimulator(() => new StravaSimulator(), { mode: testRuntime(), revokes: true, live: 'notify', liveResource: { name: 'activities', path: 'workout' } }));

describe(`Strava as its documents say (${testRuntime()})`, () => stravaAsDocumented(testRuntime()));
