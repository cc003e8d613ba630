/**
 * Phone sources (Apple Health, Health Connect, Samsung Health) as the platform keeps them: the
 * first upload from a store connects it (one `connection` event), a marketplace Disconnect stops
 * that store's uploads with 422 until the app connects it again with the mobile token, and a
 * customer rotating the mobile token makes the old one answer 401 at once. Embedded and on the
 * real servers.
 */
import { ApiClient, createTenant, eventually, Tenant, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { createUser, EventRecorder, isoDay, recordTopic, sampleRecord, sleep } from './records-fixtures';

function phoneSourcesSuite(mode: 'embedded' | 'distributed') {
  describe(`phone sources (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    let customerEvents: EventRecorder;
    const day = isoDay(-1);
    const connections = (userId: string, type: string) =>
      customerEvents.events.filter((e) => e.event_type === 'connection' && e.user_id === userId && e.payload.source.type === type).map((e) => e.payload.action);

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'phone-sources' });
      tenant = await createTenant(platform.baseUrl, { rateLimitPerHour: 1_000_000 });
      customerEvents = await recordTopic(platform.eventLog, 'events');
    }, 120_000);
    afterAll(async () => {
      await customerEvents?.stop();
      await platform?.stop();
    }, 60_000);

    it('connects on the first upload, refuses uploads after a marketplace disconnect until the app connects again', async () => {
      const u = await createUser(platform.baseUrl, tenant);
      const first = await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day), sampleRecord('summary', day)] });
      expect(first.status).toBe(200);
      expect((await u.mobile.post('/mobile/records', { records: [sampleRecord('sleep', day)] })).status).toBe(200);
      await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.action === 'connected');
      await sleep(300);
      expect(connections(u.id, 'apple_health')).toEqual(['connected']);

      // The entry shows the last upload and what it sent, on REST and on the marketplace.
      const entryOf = async () => (await tenant.api.get(`/organizations/${tenant.organizationId}/users/${u.uid}`)).body.sources.find((s: any) => s.type === 'apple_health');
      const sent = { resources: ['measurement', 'sleep', 'summary'], last_record_at: `${day}T10:30:00.000Z` };
      let seen: unknown;
      const entry = await eventually(async () => {
        const e = (seen = await entryOf());
        return e?.uploaded?.resources?.length === 3 ? e : undefined;
      }, 20_000).catch((err) => {
        throw new Error(`${String(err)}; the entry: ${JSON.stringify(seen)}`);
      });
      expect(entry).toEqual({ type: 'apple_health', connected_at: expect.any(String), status: 'active', last_synced_at: expect.any(String), backfill: null, uploaded: sent });
      expect(Date.parse(entry.last_synced_at)).toBeGreaterThanOrEqual(Date.parse(entry.connected_at));
      const view = await new ApiClient(`${platform.baseUrl}/marketplace/${u.marketplaceToken}`).get('', { headers: { accept: 'application/json' } });
      const card = view.body.sources.find((s: any) => s.type === 'apple_health');
      expect(card).toMatchObject({ connected: true, status: 'active', last_synced_at: entry.last_synced_at, uploaded: sent });
      expect(card.actions.connect).toBeUndefined();
      // A later record moves the last record time.
      expect((await u.mobile.post('/mobile/records', { records: [sampleRecord('workout', isoDay(0))] })).status).toBe(200);
      const later = await eventually(async () => {
        const e = await entryOf();
        return e?.uploaded?.resources?.includes('workout') ? e : undefined;
      }, 20_000);
      expect(later.uploaded.last_record_at).toBe(`${isoDay(0)}T10:30:00.000Z`);
      expect(Date.parse(later.last_synced_at)).toBeGreaterThan(Date.parse(entry.last_synced_at));
      expect(connections(u.id, 'apple_health')).toEqual(['connected']);

      const market = new ApiClient(`${platform.baseUrl}/marketplace/${u.marketplaceToken}`);
      const off = await market.post('/sources/apple_health/disconnect', {});
      expect(off.status).toBe(200);
      await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.action === 'disconnected');

      // The whole request is refused, the other store's record in it included: nothing half-written.
      const kept = sampleRecord('measurement', day, { source: { type: 'health_connect' } });
      const refused = await u.mobile.post('/mobile/records', { records: [kept, sampleRecord('measurement', day)] });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ errors: { 'source.type': ['disconnected'] } });
      const read = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${u.uid}/measurements?start_date=${day}&end_date=${day}`);
      expect(read.body.data.map((r: any) => r.log_id)).not.toContain(kept.log_id);
      // Another store of the same user is not affected.
      expect((await u.mobile.post('/mobile/records', { records: [kept] })).status).toBe(200);

      // The app connects again with the mobile token.
      expect((await new ApiClient(platform.baseUrl).post(`/mobile/sources/apple_health/connect?token=bad-token-0000000000000`, {})).status).toBe(401);
      expect((await u.mobile.post('/mobile/sources/no_such_store/connect', {})).status).toBe(404);
      expect((await u.mobile.post('/mobile/sources/oura/connect', {})).status).toBe(404);
      const again = await u.mobile.post('/mobile/sources/apple_health/connect', {});
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ source: { type: 'apple_health' }, connected: true });
      expect((await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status).toBe(200);
      await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && connections(u.id, 'apple_health').length === 3);
      expect(connections(u.id, 'apple_health')).toEqual(['connected', 'disconnected', 'connected']);
      // Connecting what is connected changes nothing.
      expect((await u.mobile.post('/mobile/sources/apple_health/connect', {})).status).toBe(200);
      await sleep(300);
      expect(connections(u.id, 'apple_health')).toHaveLength(3);
    }, 120_000);

    it("rotates a user's mobile token: the old one answers 401 at once, the new one works", async () => {
      const u = await createUser(platform.baseUrl, tenant);
      expect((await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status).toBe(200);
      const rotated = await tenant.api.post(`/organizations/${tenant.organizationId}/users/${u.uid}/mobile_token`, {});
      expect(rotated.status).toBe(200);
      expect(rotated.body).toEqual({ mobile: { token: expect.stringMatching(/^mob_/) } });
      expect(rotated.body.mobile.token).not.toBe(u.mobileToken);
      const old = await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] });
      expect(old.status).toBe(401);
      expect((await u.mobile.post('/mobile/sources/apple_health/connect', {})).status).toBe(401);
      const fresh = new ApiClient(platform.baseUrl, rotated.body.mobile.token);
      expect((await fresh.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status).toBe(200);
      expect((await fresh.post('/mobile/sources/apple_health/connect', {})).status).toBe(200);
      const got = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${u.uid}`);
      expect(got.body.mobile.token).toBe(rotated.body.mobile.token);
      expect((await tenant.api.post(`/organizations/${tenant.organizationId}/users/no-such-user/mobile_token`, {})).status).toBe(404);
    }, 60_000);
  });
}

phoneSourcesSuite(testRuntime());
