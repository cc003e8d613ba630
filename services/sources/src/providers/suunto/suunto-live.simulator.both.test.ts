/**
 * What the shared provider suite leaves open for Suunto, through the whole platform on this run's
 * runtime: a forged notification is refused with 401 and makes no request to Suunto, a signed one
 * for a 24/7 sleep brings it, and a reconnect after the grant was revoked reads only the gap since
 * the last sync (a day of overlap), not the whole history again.
 */
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { byRuntime, createTenant, eventually, Tenant, testRuntime, witnessLogs } from '@wellstream/testing';
import { SuuntoSimulator } from './simulator/suunto-simulator';

jest.setTimeout(byRuntime({ embedded: 120_000, distributed: 240_000 }));

const DAY = 86_400_000;

describe(`Suunto live updates and reconnects (${testRuntime()})`, () => {
  const sim = new SuuntoSimulator();
  let platform: TestPlatform;
  let tenant: Tenant;

  beforeAll(async () => {
    await sim.start();
    platform = await startTestPlatform({
      mode: testRuntime(),
      env: { ...sim.env(), WELLSTREAM_SOURCE_BACKFILL_DAYS: '10', WELLSTREAM_SOURCE_POLL_INTERVAL_S: '5', WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100', WELLSTREAM_SOURCE_SUUNTO_RATE_LIMITS: '100000/1m' },
      label: 'sources-suunto-live',
    });
    tenant = await createTenant(platform.baseUrl);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await sim.stop();
  });

  const webhook = () => `${platform.baseUrl}/sources/suunto/webhook`;
  const sourceOf = async (uid: string) => ((await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`)).body.sources as any[]).find((s) => s.type === 'suunto');

  async function connected(label: string, action = 'connect') {
    const uid = `${label}-${Date.now().toString(36)}`;
    const res = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid, location: { timezone: 'Europe/Berlin' } });
    const who = sim.createUser({ days: 12, now: new Date() });
    const marketplace = res.body.marketplace.url as string;
    const go = async (a: string) => {
      const start = await fetch(`${marketplace}/sources/suunto/${a}`, { method: 'POST', redirect: 'manual' });
      expect(start.status).toBe(303);
      const back = await fetch(sim.authorize(start.headers.get('location')!, who, 'allow'), { redirect: 'manual' });
      expect(back.status).toBe(303);
      await eventually(async () => (await sourceOf(uid))?.backfill?.state === 'done' && (await sourceOf(uid))?.status === 'active', 60_000, 200);
    };
    await go(action);
    return { uid, id: res.body.id as string, who, again: () => go('reconnect') };
  }

  it('refuses a forged notification (401, nothing asked of Suunto); a signed sleep notification brings the sleep', async () => {
    const { uid, who } = await connected('forged');
    sim.addData(who, 'workouts', new Date(Date.now() - 3600_000));
    const before = sim.stats(who).dataRequests;
    expect(await sim.notifyForged(webhook(), who, 'workouts')).toBe(401);
    // Malformed JSON: the webhook route's 400, before any adapter reads it.
    const garbage = await fetch(webhook(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-hmac-sha256-signature': 'zz' }, body: '{"type":' });
    expect(garbage.status).toBe(400);
    await new Promise((r) => setTimeout(r, 1500));
    expect(sim.stats(who).dataRequests).toBe(before);

    const [sleepId] = sim.addData(who, 'sleep', new Date(Date.now() - 60_000));
    expect(await sim.notify(webhook(), who, 'sleep')).toBe(200);
    await eventually(async () => {
      const res = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}/sleep?start_date=${new Date(Date.now() - DAY).toISOString().slice(0, 10)}&end_date=${new Date(Date.now() + DAY).toISOString().slice(0, 10)}&source=suunto`);
      return (res.body.data as any[]).some((r) => r.log_id === sleepId);
    }, 30_000, 200);
  });

  it('after a revoked grant, a reconnect reads only the gap since the last sync', async () => {
    const { uid, id, who, again } = await connected('gap');
    const witness = witnessLogs(id, who.providerUserId);
    try {
      const first = sim.requests(who).filter((r) => r.path === '/v2/workouts');
      // The first backfill reached ten days back.
      expect(Math.min(...first.map((r) => Number(r.query.since)))).toBeLessThan(Date.now() - 9 * DAY);
      sim.revokeGrant(who);
      sim.expireAccessTokens(who);
      sim.addData(who, 'workouts', new Date());
      expect(await sim.notify(webhook(), who, 'workouts')).toBe(200);
      await eventually(async () => (await sourceOf(uid))?.status === 'auth_expired', 45_000, 200);
      const seen = sim.requests(who).length;
      await again();
      const after = sim.requests(who).slice(seen).filter((r) => r.path === '/v2/workouts' || r.path.startsWith('/247'));
      expect(after.length).toBeGreaterThan(0);
      const earliest = Math.min(...after.map((r) => Number(r.query.since ?? r.query.from ?? Date.parse(`${r.query.startdate}Z`))));
      // The gap (seconds here) and a day of overlap, read over whole UTC days: never the ten days again.
      expect(earliest).toBeGreaterThan(Date.now() - 3 * DAY);
    } catch (err) {
      witness.explain(new Error(`${err instanceof Error ? err.message : String(err)}\nsource entry: ${JSON.stringify(await sourceOf(uid))}\nSuunto saw: ${JSON.stringify(sim.requests(who).map((r) => r.path))}`));
    } finally {
      witness.stop();
    }
  });
});
