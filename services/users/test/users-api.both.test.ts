/**
 * The users service through the gateway: provisioning, validation, paging, organization and
 * customer isolation, deletion, suspension, the marketplace (JSON/HTML), connections and
 * detections. Runs embedded and on the real servers.
 */
import { publishEvents, SourceConnectionEvent, sourceConnectionsTopic, sourceDetectionsTopic, sourceProvidersTopic } from '@wellstream/contracts';
import { ApiClient, createTenant, EventRecorder, eventually, recordTopic, Tenant, TEST_ADMIN_TOKEN, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

const CREATE_KEYS = ['created_at', 'id', 'location', 'marketplace', 'sources', 'uid', 'updated_at'];
const GET_KEYS = [...CREATE_KEYS, 'mobile'].sort();
const LIST_KEYS = ['created_at', 'id', 'location', 'marketplace', 'mobile', 'status', 'uid', 'updated_at'];

function usersApiSuite(mode: 'embedded' | 'distributed') {
  describe(`users API (${mode})`, () => {
    let platform: TestPlatform;
    let a: Tenant;
    let b: Tenant;
    let admin: ApiClient;
    let userEvents: EventRecorder<any>;
    let customerEvents: EventRecorder<any>;
    let n = 0;
    const uid = () => `user-${Date.now().toString(36)}-${(n++).toString(36)}`;
    const users = (t: Tenant, rest = '') => `/organizations/${t.organizationId}/users${rest}`;
    const create = async (t: Tenant, body: Record<string, unknown> = {}) => {
      const res = await t.api.post(users(t), { uid: uid(), ...body });
      expect(res.status).toBe(201);
      return res.body;
    };
    const market = (url: string) => new ApiClient(url);

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'users' });
      a = await createTenant(platform.baseUrl);
      b = await createTenant(platform.baseUrl);
      admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      userEvents = await recordTopic(platform.eventLog, 'users');
      customerEvents = await recordTopic(platform.eventLog, 'events');
    }, 120_000);

    afterAll(async () => {
      await userEvents?.stop();
      await customerEvents?.stop();
      await platform?.stop();
    }, 60_000);

    it('creates a user (201) with exactly the documented fields, and publishes user.created', async () => {
      const id = uid();
      const res = await a.api.post(users(a), { uid: id, location: { timezone: 'Europe/Berlin', country_code: 'de' } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(CREATE_KEYS);
      expect(res.body).toMatchObject({ uid: id, location: { timezone: 'Europe/Berlin', country_code: 'DE' }, sources: [] });
      expect(res.body.marketplace.url).toBe(`${platform.publicUrl}/v2/marketplace/${res.body.marketplace.token}`);
      expect(res.body.marketplace.token.length).toBeGreaterThanOrEqual(40);
      const ev = await userEvents.waitFor((e) => e.type === 'user.created' && e.user.id === res.body.id);
      expect(ev.user).toMatchObject({ uid: id, organization_id: a.organizationId, customer_id: a.customerId, status: 'active', timezone_origin: 'profile' });
      expect(ev.user.mobile_token.length).toBeGreaterThanOrEqual(40);
    });

    it('gets a user with the mobile token; locations may be null', async () => {
      const u = await create(a);
      expect(u.location).toEqual({ timezone: null, country_code: null });
      const res = await a.api.get(users(a, `/${u.uid}`));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(GET_KEYS);
      expect(res.body.mobile.token).toMatch(/^mob_/);
      expect(res.body.id).toBe(u.id);
      const other = await create(a);
      const otherGet = await a.api.get(users(a, `/${other.uid}`));
      expect(otherGet.body.mobile.token).not.toBe(res.body.mobile.token);
    });

    it('updates the location with PUT (keys left out are kept) and publishes user.updated', async () => {
      const u = await create(a, { location: { timezone: 'UTC', country_code: 'US' } });
      const res = await a.api.put(users(a, `/${u.uid}`), { location: { timezone: 'US/Eastern' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(CREATE_KEYS);
      expect(res.body.location).toEqual({ timezone: 'US/Eastern', country_code: 'US' });
      const cleared = await a.api.put(users(a, `/${u.uid}`), { location: { country_code: null } });
      expect(cleared.body.location).toEqual({ timezone: 'US/Eastern', country_code: null });
      await userEvents.waitFor((e) => e.type === 'user.updated' && e.user.id === u.id && e.user.country_code === null);
    });

    it('refuses bad time zones and country codes with 422 keyed by field', async () => {
      const tz = await a.api.post(users(a), { uid: uid(), location: { timezone: 'Mars/Olympus_Mons' } });
      expect(tz.status).toBe(422);
      expect(tz.body.errors['location.timezone'][0]).toMatch(/Olson/);
      const cc = await a.api.post(users(a), { uid: uid(), location: { country_code: 'XX' } });
      expect(cc.status).toBe(422);
      expect(cc.body.errors['location.country_code'][0]).toMatch(/ISO 3166-1/);
      const u = await create(a);
      const put = await a.api.put(users(a, `/${u.uid}`), { location: { timezone: 'Etc/Nowhere' } });
      expect(put.status).toBe(422);
      expect(put.body.errors).toHaveProperty(['location.timezone']);
      for (const ok of ['Etc/GMT+5', 'UTC', 'America/Argentina/Buenos_Aires']) {
        expect((await a.api.post(users(a), { uid: uid(), location: { timezone: ok } })).status).toBe(201);
      }
    });

    it.each([
      ['an e-mail address', 'jane.doe@example.com', /e-mail/],
      ['an international phone number', '+14155552671', /phone/],
      ['a national phone number', '415-555-2671', /phone/],
      ['a social security number', '123-45-6789', /social security/],
      ['a bare social security number', 'p123456789', /social security/],
      ['an empty uid', '', /empty/],
      ['an over-long uid', 'u'.repeat(129), /128/],
      ['a path-unsafe uid', 'a/b?c', /letters, digits/],
    ])('refuses %s as uid with 422', async (_what, bad, reason) => {
      const res = await a.api.post(users(a), { uid: bad });
      expect(res.status).toBe(422);
      expect(res.body.errors.uid.join(' ')).toMatch(reason);
    });

    it('refuses a duplicate uid in the organization with 422, but allows it in another organization', async () => {
      const u = await create(a);
      const dup = await a.api.post(users(a), { uid: u.uid });
      expect(dup.status).toBe(422);
      expect(dup.body).toEqual({ errors: { uid: ['already exists'] } });
      expect((await b.api.post(users(b), { uid: u.uid })).status).toBe(201);
    });

    it('answers malformed bodies with 400', async () => {
      expect((await a.api.post(users(a), { uid: 42 })).status).toBe(400);
      expect((await a.api.post(users(a), {})).body.errors).toHaveProperty('uid');
      expect((await a.api.post(users(a), { uid: uid(), extra: 1 })).status).toBe(400);
      expect((await a.api.request('POST', users(a), undefined, { rawBody: '{"uid":' })).status).toBe(400);
      const u = await create(a);
      expect((await a.api.put(users(a, `/${u.uid}`), {})).status).toBe(400);
    });

    it('lists the organization users with paging and sorting, without sources', async () => {
      const t = await createTenant(platform.baseUrl);
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await create(t));
      const res = await t.api.get(users(t));
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ offset: 0, limit: 25, total: 3, sort: 'created_at' });
      expect(res.body.data.map((u: any) => u.id)).toEqual(made.map((u) => u.id));
      expect(Object.keys(res.body.data[0]).sort()).toEqual(LIST_KEYS);
      expect(res.body.data[0].status).toBe('active');
      const page = await t.api.get(users(t, '?offset=1&limit=1'));
      expect(page.body.data.map((u: any) => u.id)).toEqual([made[1].id]);
      expect(page.body.meta).toEqual({ offset: 1, limit: 1, total: 3, sort: 'created_at' });
      const desc = await t.api.get(users(t, '?sort=-created_at'));
      expect(desc.body.data.map((u: any) => u.id)).toEqual(made.map((u) => u.id).reverse());
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'offset=1.5', 'sort=name'])('answers bad paging %s with 400', async (q) => {
      const res = await a.api.get(users(a, `?${q}`));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([q.split('=')[0]]);
    });

    it('refuses other customers and missing tokens (401) and keeps organizations apart (404)', async () => {
      const u = await create(a);
      const cross = await b.api.get(users(a, `/${u.uid}`));
      expect(cross.status).toBe(401);
      expect(Array.isArray(cross.body.errors)).toBe(true);
      expect((await b.api.post(users(a), { uid: uid() })).status).toBe(401);
      expect((await b.api.get(users(a))).status).toBe(401);
      const anonymous = await new ApiClient(platform.baseUrl).get(users(a, `/${u.uid}`));
      expect(anonymous.status).toBe(401);
      expect(typeof anonymous.body.message).toBe('string');
      // A second organization of the same customer does not see the first one's users.
      const org2 = await admin.post(`/admin/customers/${a.customerId}/organizations`, { name: 'Second org' });
      expect(org2.status).toBe(201);
      const inOrg2 = await a.api.get(`/organizations/${org2.body.id}/users/${u.uid}`);
      expect(inOrg2.status).toBe(404);
      expect(inOrg2.body.errors[0]).toMatch(/No user/);
      const list2 = await a.api.get(`/organizations/${org2.body.id}/users`);
      expect(list2.body.meta.total).toBe(0);
    });

    it('serves the marketplace as JSON and HTML', async () => {
      const u = await create(a, { location: { timezone: 'Europe/Paris' } });
      const json = await market(u.marketplace.url).get('', { headers: { accept: 'application/json' } });
      expect(json.status).toBe(200);
      expect(json.body.user).toMatchObject({ uid: u.uid, status: 'active', location: { timezone: 'Europe/Paris' } });
      const demo = json.body.sources.find((s: any) => s.type === 'demo');
      expect(demo).toMatchObject({ connected: false, status: null, last_synced_at: null, backfill: null, actions: { connect: `${u.marketplace.url}/sources/demo/connect` } });
      expect(json.body.sources.map((s: any) => s.type)).toEqual(expect.arrayContaining(['demo', 'apple_health', 'health_connect', 'samsung_health']));
      expect(json.body.sources.map((s: any) => s.type)).not.toContain('fitbit');
      const html = await market(u.marketplace.url).get('', { headers: { accept: 'text/html' } });
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toMatch(/text\/html/);
      expect(html.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(html.text).toMatch(/aria-live="polite"/);
      expect(html.text).toMatch(/<label for="timezone">/);
      expect(html.headers.get('content-security-policy')).toMatch(/form-action 'self'/);
    });

    it('connects and disconnects sources: sources, users-topic and connection events', async () => {
      const u = await create(a);
      const m = market(u.marketplace.url);
      const connected = await m.post('/sources/demo/connect');
      expect(connected.status).toBe(200);
      expect(connected.body.sources.find((s: any) => s.type === 'demo').connected).toBe(true);
      const got = await a.api.get(users(a, `/${u.uid}`));
      expect(got.body.sources).toEqual([{ type: 'demo', connected_at: expect.any(String), status: 'active', last_synced_at: null, backfill: null }]);
      await userEvents.waitFor((e) => e.type === 'source.connected' && e.user.id === u.id && e.source_type === 'demo');
      const conn = await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id);
      expect(conn).toMatchObject({ key: conn.id, customer_id: a.customerId, organization_id: a.organizationId });
      expect(conn.payload).toEqual({
        user: { uid: u.uid, user_id: u.id, organization_id: a.organizationId },
        source: { type: 'demo' },
        action: 'connected',
        created_at: expect.any(String),
      });
      // Connecting again changes nothing and emits nothing.
      await m.post('/sources/demo/connect');
      // Cloud sources connect through their provider's sign-in (the sources service, which offers
      // only providers with credentials: none here), never through the users service.
      const cloud = await m.post('/sources/polar/connect', {});
      expect(cloud.status).toBe(404);
      expect(cloud.body.errors[0]).toMatch(/not offered/);
      expect((await m.post('/sources/garmin/connect')).status).toBe(404);
      // Phone apps connect from the customer's app (first upload, or the app's connect), never here.
      const phone = await m.post('/sources/apple_health/connect');
      expect(phone.status).toBe(422);
      expect(phone.body.errors.type[0]).toMatch(/connects from the app/);
      const mobileToken = (await a.api.get(users(a, `/${u.uid}`))).body.mobile.token;
      expect((await new ApiClient(platform.baseUrl, mobileToken).post('/mobile/sources/apple_health/connect', {})).status).toBe(200);
      expect((await m.post('/sources/fitbit/connect')).status).toBe(404);
      expect((await m.post('/sources/no_such_source/connect')).status).toBe(404);
      const off = await m.post('/sources/demo/disconnect');
      expect(off.status).toBe(200);
      const after = await a.api.get(users(a, `/${u.uid}`));
      expect(after.body.sources.map((s: any) => s.type)).toEqual(['apple_health']);
      await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.action === 'disconnected');
      const demoConnections = customerEvents.events.filter(
        (e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.source.type === 'demo' && e.payload.action === 'connected',
      );
      expect(demoConnections).toHaveLength(1);
    });

    it('lets the user choose a time zone (user_defined) and refuses bad ones', async () => {
      const u = await create(a, { location: { timezone: 'UTC' } });
      const m = market(u.marketplace.url);
      const bad = await m.post('/timezone', { timezone: 'Atlantis/Capital' });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toHaveProperty('timezone');
      const ok = await m.post('/timezone', { timezone: 'Asia/Tokyo' });
      expect(ok.status).toBe(200);
      expect(ok.body.user.location).toEqual({ timezone: 'Asia/Tokyo', timezone_origin: 'user_defined', country_code: null });
      expect((await a.api.get(users(a, `/${u.uid}`))).body.location.timezone).toBe('Asia/Tokyo');
      await userEvents.waitFor((e) => e.type === 'user.updated' && e.user.id === u.id && e.user.timezone_origin === 'user_defined');
    });

    it('refreshes the marketplace: the old URL stops working, sources stay', async () => {
      const u = await create(a);
      await market(u.marketplace.url).post('/sources/demo/connect');
      const res = await a.api.post(users(a, `/${u.uid}/marketplace`));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['marketplace']);
      expect(res.body.marketplace.token).not.toBe(u.marketplace.token);
      expect(res.body.marketplace.url).toBe(`${platform.publicUrl}/v2/marketplace/${res.body.marketplace.token}`);
      expect((await market(u.marketplace.url).get('', { headers: { accept: 'application/json' } })).status).toBe(404);
      const oldHtml = await market(u.marketplace.url).get('', { headers: { accept: 'text/html' } });
      expect(oldHtml.status).toBe(404);
      expect(oldHtml.headers.get('content-type')).toMatch(/text\/html/);
      expect((await market(u.marketplace.url).post('/sources/apple_health/connect')).status).toBe(404);
      const fresh = await market(res.body.marketplace.url).get('', { headers: { accept: 'application/json' } });
      expect(fresh.status).toBe(200);
      expect(fresh.body.sources.find((s: any) => s.type === 'demo').connected).toBe(true);
      const got = await a.api.get(users(a, `/${u.uid}`));
      expect(got.body.marketplace.token).toBe(res.body.marketplace.token);
      expect(got.body.sources.map((s: any) => s.type)).toEqual(['demo']);
      await userEvents.waitFor((e) => e.type === 'marketplace.refreshed' && e.user.id === u.id);
    });

    it('deletes a user: deleted_at, then 404 everywhere, uid stays reserved, user.deleted published', async () => {
      const u = await create(a);
      const res = await a.api.delete(users(a, `/${u.uid}`));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...CREATE_KEYS, 'deleted_at'].sort());
      expect(res.body.deleted_at).toEqual(expect.any(String));
      expect((await a.api.get(users(a, `/${u.uid}`))).status).toBe(404);
      expect((await a.api.put(users(a, `/${u.uid}`), { location: { timezone: 'UTC' } })).status).toBe(404);
      expect((await a.api.post(users(a, `/${u.uid}/marketplace`))).status).toBe(404);
      expect((await a.api.delete(users(a, `/${u.uid}`))).status).toBe(404);
      expect((await market(u.marketplace.url).get('', { headers: { accept: 'application/json' } })).status).toBe(404);
      const list = await a.api.get(users(a, '?limit=100'));
      expect(list.body.data.some((x: any) => x.id === u.id)).toBe(false);
      expect((await a.api.post(users(a), { uid: u.uid })).status).toBe(422);
      const ev = await userEvents.waitFor((e) => e.type === 'user.deleted' && e.user.id === u.id);
      expect(ev.user).toMatchObject({ status: 'deleted', deleted_at: res.body.deleted_at });
    });

    it('suspends through the operator API only: marketplace closed, user.suspended; unsuspend restores', async () => {
      const u = await create(a);
      const path = `/admin/organizations/${a.organizationId}/users/${u.uid}`;
      const asDeveloper = await a.api.post(`${path}/suspend`);
      expect(asDeveloper.status).toBe(401);
      expect(typeof asDeveloper.body.message).toBe('string');
      const direct = await fetch(`${platform.services.find((s) => s.name === 'users')!.url}/v2${path}/suspend`, { method: 'POST' });
      expect(direct.status).toBe(401);
      expect(await direct.json()).toEqual({ message: expect.any(String) });

      const res = await admin.post(`${path}/suspend`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: u.id, uid: u.uid, status: 'suspended', mobile: { token: expect.any(String) } });
      await userEvents.waitFor((e) => e.type === 'user.suspended' && e.user.id === u.id && e.user.status === 'suspended');
      const closed = await market(u.marketplace.url).get('', { headers: { accept: 'application/json' } });
      expect(closed.status).toBe(404);
      expect((await market(u.marketplace.url).post('/sources/demo/connect')).status).toBe(404);
      const listed = await a.api.get(users(a, '?limit=100'));
      expect(listed.body.data.find((x: any) => x.id === u.id).status).toBe('suspended');
      expect((await admin.post(`/admin/organizations/${a.organizationId}/users/nobody-here/suspend`)).status).toBe(404);

      const back = await admin.post(`${path}/unsuspend`);
      expect(back.status).toBe(200);
      expect(back.body.status).toBe('active');
      await userEvents.waitFor((e) => e.type === 'user.unsuspended' && e.user.id === u.id);
      expect((await market(u.marketplace.url).get('', { headers: { accept: 'application/json' } })).status).toBe(200);
    });

    it('connects a source records detected, once', async () => {
      const u = await create(a);
      const detection = {
        type: 'source.detected' as const,
        user_id: u.id,
        organization_id: a.organizationId,
        source_type: 'apple_health',
        detected_at: new Date().toISOString(),
      };
      await publishEvents(platform.eventLog, sourceDetectionsTopic, [detection, { ...detection }]);
      await eventually(async () => (await a.api.get(users(a, `/${u.uid}`))).body.sources.some((s: any) => s.type === 'apple_health'));
      await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.source.type === 'apple_health');
      // A later detection of the same source is a no-op; cloud sources are the sources service's.
      await publishEvents(platform.eventLog, sourceDetectionsTopic, [{ ...detection, detected_at: new Date().toISOString() }, { ...detection, source_type: 'oura' }]);
      const marker = await create(a);
      await publishEvents(platform.eventLog, sourceDetectionsTopic, [{ ...detection, user_id: marker.id, source_type: 'demo' }]);
      await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === marker.id);
      const got = await a.api.get(users(a, `/${u.uid}`));
      expect(got.body.sources.map((s: any) => s.type)).toEqual(['apple_health']);
      expect(customerEvents.events.filter((e) => e.event_type === 'connection' && e.user_id === u.id)).toHaveLength(1);
    });

    it('follows provider connections from the sources service: entries, connection events, marketplace state', async () => {
      const now = () => new Date().toISOString();
      await publishEvents(platform.eventLog, sourceProvidersTopic, [
        { type: 'source.provider', source_type: 'oura', offered: true, history_days: null, note: null, authorize_origin: 'https://cloud.ouraring.com', occurred_at: now() },
      ]);
      const u = await create(a);
      const m = market(u.marketplace.url);
      const view = async () => (await m.get('', { headers: { accept: 'application/json' } })).body;
      const oura = async () => (await view()).sources.find((s: any) => s.type === 'oura');
      await eventually(async () => (await oura()) !== undefined);
      expect(await oura()).toMatchObject({ kind: 'cloud', connected: false, status: null, actions: { connect: `${u.marketplace.url}/sources/oura/connect` } });
      const html = await m.get('', { headers: { accept: 'text/html' } });
      expect(html.headers.get('content-security-policy')).toMatch(/form-action 'self' https:\/\/cloud\.ouraring\.com(;|$)/);

      const connectedAt = now();
      const backfill = { state: 'running' as const, progress: 0.25, start: '2025-01-01T00:00:00.000Z', end: connectedAt };
      const base: SourceConnectionEvent = {
        type: 'source.connection', action: 'connected', user_id: u.id, organization_id: a.organizationId, source_type: 'oura',
        status: 'active', connected_at: connectedAt, last_synced_at: null, backfill, occurred_at: connectedAt,
      };
      await publishEvents(platform.eventLog, sourceConnectionsTopic, [base, { ...base }]);
      const connected = await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.action === 'connected');
      expect(connected.payload).toEqual({ user: { uid: u.uid, user_id: u.id, organization_id: a.organizationId }, source: { type: 'oura' }, action: 'connected', created_at: expect.any(String) });
      await eventually(async () => (await a.api.get(users(a, `/${u.uid}`))).body.sources.length === 1);
      expect((await a.api.get(users(a, `/${u.uid}`))).body.sources).toEqual([{ type: 'oura', connected_at: connectedAt, status: 'active', last_synced_at: null, backfill }]);

      await publishEvents(platform.eventLog, sourceConnectionsTopic, [{ ...base, action: 'auth_expired', status: 'auth_expired', reason: 'access revoked at the provider', occurred_at: now() }]);
      const expired = await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.action === 'auth_expired');
      expect(expired.payload.reason).toBe('access revoked at the provider');
      expect((await oura()).actions.reconnect).toBe(`${u.marketplace.url}/sources/oura/reconnect`);
      expect((await m.get('', { headers: { accept: 'text/html' } })).text).toContain('Access expired — reconnect');

      await publishEvents(platform.eventLog, sourceConnectionsTopic, [{ ...base, action: 'disconnected', reason: 'disconnected by the user', occurred_at: now() }]);
      await customerEvents.waitFor((e) => e.event_type === 'connection' && e.user_id === u.id && e.payload.action === 'disconnected');
      expect((await a.api.get(users(a, `/${u.uid}`))).body.sources).toEqual([]);
      // The duplicate connect emitted nothing.
      expect(customerEvents.events.filter((e) => e.event_type === 'connection' && e.user_id === u.id).map((e) => e.payload.action)).toEqual(['connected', 'auth_expired', 'disconnected']);
      await userEvents.waitFor((e) => e.type === 'source.disconnected' && e.user.id === u.id);
      const snapshots = userEvents.events.filter((e) => e.user.id === u.id && e.source_type === 'oura');
      expect(snapshots.map((e) => e.type)).toEqual(['source.connected', 'source.updated', 'source.disconnected']);
      expect(snapshots[1].user.sources).toEqual([{ type: 'oura', connected_at: connectedAt, status: 'auth_expired', last_synced_at: null, backfill }]);
    });

    it('serves its OpenAPI part, merged by the gateway', async () => {
      const res = await fetch(`${platform.baseUrl}/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as any;
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/organizations/{org_id}/users', '/organizations/{org_id}/users/{uid}', '/marketplace/{token}']),
      );
    });
  });
}

usersApiSuite(testRuntime());
