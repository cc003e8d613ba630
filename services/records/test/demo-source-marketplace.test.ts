/**
 * The demo source end to end: connecting `demo` in the marketplace (the sources service, whose
 * demo provider publishes on `source-records`) fills the last days with believable data, ingested
 * here, served by the record endpoints and published as data events.
 */
import { ApiClient, createTenant, eventually, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { createUser, EventRecorder, isoDay, recordTopic } from './records-fixtures';

describe('demo source', () => {
  let platform: TestPlatform;
  let t: Tenant;
  let events: EventRecorder;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { WELLSTREAM_DEMO_TICK_MS: '500' } });
    t = await createTenant(platform.baseUrl);
    events = await recordTopic(platform.eventLog, 'events');
  }, 60_000);

  afterAll(async () => {
    await events?.stop();
    await platform?.stop();
  });

  it('backfills a week of data after the user connects demo, through ingestion', async () => {
    const u = await createUser(platform.baseUrl, t, { timezone: 'Europe/Berlin' });
    const market = new ApiClient(platform.baseUrl);
    const connected = await market.request('POST', `/marketplace/${u.marketplaceToken}/sources/demo/connect`, { consent: true }, { headers: { accept: 'application/json' } });
    expect(connected.status).toBe(200);

    // Dates are the user's local dates: from 22:00 or 23:00 UTC on, Berlin's today is UTC's tomorrow,
    // so the window reaches one day past UTC's today (the test failed in that hour before).
    const q = `?start_date=${isoDay(-7)}&end_date=${isoDay(1)}`;
    const get = (plural: string) => t.api.get(`/organizations/${t.organizationId}/users/${u.uid}/${plural}${q}`);
    const summaries = await eventually(async () => {
      const res = await get('summaries');
      return res.body.data?.length >= 7 ? res.body.data : undefined;
    }, 20_000);
    for (const s of summaries) {
      expect(s).toMatchObject({ type: 'summary', category: 'daily', source: { type: 'demo' }, offset_origin: 'profile' });
      expect([3600, 7200]).toContain(s.utc_offset);
      // The day starts at local midnight in Berlin.
      expect(s.start_time).toMatch(/T2[23]:00:00Z$/);
    }
    const full = summaries[summaries.length - 2];
    const steps = full.metrics.find((m: any) => m.type === 'steps').value;
    expect(steps).toBeGreaterThan(2000);
    expect(full.metrics.map((m: any) => m.type)).toEqual(expect.arrayContaining(['steps', 'distance', 'energy_burned', 'resting_heart_rate', 'heart_rate_zone_high']));

    const sleep = (await get('sleep')).body.data;
    expect(sleep.length).toBeGreaterThanOrEqual(6);
    const weights = (await get('measurements')).body.data;
    expect(weights.length).toBeGreaterThanOrEqual(7);
    for (const w of weights) expect(w.metrics[0]).toMatchObject({ type: 'body_weight', unit: 'kg' });
    const meals = (await get('nutrition')).body.data;
    expect(meals.length).toBeGreaterThanOrEqual(7 * 3);
    expect(meals[0].segments.length).toBeGreaterThanOrEqual(2);
    const intraday = (await get('intraday')).body.data;
    // Seven whole days, and today's once its first 5-minute slot has ended (in the first minutes
    // after Berlin's midnight it has none: the test failed at 23:02 UTC).
    expect(intraday.length).toBeGreaterThanOrEqual(7);
    expect(intraday[0].metrics.map((m: any) => m.type)).toEqual(['heart_rate', 'steps']);

    // Demo is a connected source: no detection, and every record is on the events topic.
    await eventually(async () => events.events.filter((e) => e.user_id === u.id && e.event_type === 'data').length >= summaries.length + sleep.length + weights.length + meals.length + intraday.length);

    // Disconnecting stops it: nothing new arrives after the in-flight work settles.
    const off = await market.request('POST', `/marketplace/${u.marketplaceToken}/sources/demo/disconnect`, {}, { headers: { accept: 'application/json' } });
    expect(off.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const count = events.events.filter((e) => e.user_id === u.id && e.event_type === 'data').length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(events.events.filter((e) => e.user_id === u.id && e.event_type === 'data').length).toBe(count);
  }, 60_000);
});
