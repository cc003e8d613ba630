/**
 * The records service through the gateway: ingestion (mobile endpoint), validation, versioning and
 * events, offsets, the record endpoints' date/source rules and isolation. Runs embedded
 * and on the real servers.
 */
import { ApiClient, createTenant, eventually, Tenant, TEST_ADMIN_TOKEN, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { createUser, EventRecorder, isoDay, newUid, PLURAL, recordTopic, sampleRecord, sleep, TestUser } from './records-fixtures';

const RECORD_KEYS = [
  'checksum', 'created_at', 'deleted_at', 'end_time', 'id', 'log_id', 'metrics', 'offset_origin', 'source', 'start_time', 'tags', 'type',
  'user', 'user_notes', 'utc_offset', 'version',
];

function recordsApiSuite(mode: 'embedded' | 'distributed') {
  describe(`records API (${mode})`, () => {
    let platform: TestPlatform;
    let a: Tenant;
    let b: Tenant;
    let events: EventRecorder;
    let detections: EventRecorder;
    const today = isoDay(0);
    const day = isoDay(-2);
    const list = (t: Tenant, u: TestUser, plural: string, query = '') => t.api.get(`/organizations/${t.organizationId}/users/${u.uid}/${plural}${query}`);
    const dataEventsOf = (userId: string) => events.events.filter((e) => e.event_type === 'data' && e.user_id === userId);

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'records' });
      a = await createTenant(platform.baseUrl);
      b = await createTenant(platform.baseUrl);
      events = await recordTopic(platform.eventLog, 'events');
      detections = await recordTopic(platform.eventLog, 'source-detections');
    }, 120_000);

    afterAll(async () => {
      await events?.stop();
      await detections?.stop();
      await platform?.stop();
    }, 60_000);

    it('round-trips every record type: mobile ingestion → every endpoint it belongs to, once on the events topic', async () => {
      const u = await createUser(platform.baseUrl, a, { timezone: 'UTC' });
      const types = ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday', 'cgm'];
      const posted = types.map((t) => sampleRecord(t, day));
      const res = await u.mobile.post('/mobile/records', { records: posted });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(types.length);
      for (const [i, r] of (res.body.data as any[]).entries()) {
        expect(Object.keys(r)).toEqual(expect.arrayContaining(RECORD_KEYS));
        expect(r).toMatchObject({
          type: types[i],
          version: '1.0',
          log_id: posted[i].log_id,
          utc_offset: 0,
          offset_origin: 'profile',
          user: { uid: u.uid, user_id: u.id, organization_id: a.organizationId },
          source: { type: 'apple_health' },
          deleted_at: null,
          user_notes: [],
          tags: [],
        });
        expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
        expect(r).not.toHaveProperty('local_date');
        expect(r).not.toHaveProperty('_id');
      }
      for (const [i, type] of types.entries()) {
        if (type === 'cgm') continue;
        const got = await list(a, u, PLURAL[type], `?start_date=${day}&end_date=${day}`);
        expect(got.status).toBe(200);
        expect(got.body.data).toEqual([res.body.data[i]]);
      }
      // cgm is served on streams/replay only: it is on no record endpoint.
      for (const plural of Object.values(PLURAL)) {
        const got = await list(a, u, plural, `?start_date=${day}&end_date=${day}`);
        expect(got.body.data.some((r: any) => r.type === 'cgm')).toBe(false);
      }
      await eventually(async () => dataEventsOf(u.id).length === types.length);
      await sleep(300);
      const evs = dataEventsOf(u.id);
      expect(evs).toHaveLength(types.length);
      for (const [i, rec] of (res.body.data as any[]).entries()) {
        const ev = evs.find((e) => e.key === rec.id);
        expect(ev).toMatchObject({
          event_type: 'data',
          key: rec.id,
          user_id: u.id,
          customer_id: a.customerId,
          organization_id: a.organizationId,
          resource: types[i],
          start_time: rec.start_time,
          created_at: rec.created_at,
          payload: rec,
        });
      }
      // Type-specific fields survive.
      const workout = res.body.data[4];
      expect(workout).toMatchObject({ category: 'running', name: 'Morning run', segments: [{ name: 'Lap 1' }] });
      expect(res.body.data[5].metrics[0]).toMatchObject({ type: 'heart_rate', granularity: 'PT5M', samples: [{ time: `${day}T10:00:00Z`, value: 62 }, {}, {}] });
    });

    it('rejects invalid records with 400 keyed by field, and stores and publishes nothing of the request', async () => {
      const u = await createUser(platform.baseUrl, a);
      const good = () => sampleRecord('measurement', day);
      const cases: [Record<string, unknown>, string][] = [
        [sampleRecord('measurement', day, { metrics: [{ type: 'no_such_metric', unit: 'kg', value: 1 }] }), 'records[3].metrics[0].type'],
        [sampleRecord('measurement', day, { metrics: [{ type: 'body_weight', unit: 'bpm', value: 1 }] }), 'records[3].metrics[0].unit'],
        [sampleRecord('measurement', day, { metrics: [{ type: 'body_weight', unit: 'kg', value: 'heavy' }] }), 'records[3].metrics[0].value'],
        [sampleRecord('measurement', day, { metrics: [{ type: 'body_weight', unit: 'kg', value: '70' }] }), 'records[3].metrics[0].value'],
        [sampleRecord('measurement', day, { utc_offset: '3600' }), 'records[3].utc_offset'],
        [sampleRecord('measurement', day, { deleted: 'true' }), 'records[3].deleted'],
        [sampleRecord('measurement', day, { metrics: [{ type: 'steps', unit: 'count', value: 1 }] }), 'records[3].metrics[0].type'],
        [sampleRecord('measurement', day, { start_time: `${day} 10:00:00` }), 'records[3].start_time'],
        [sampleRecord('measurement', day, { start_time: `${day}T10:00:00+02:00` }), 'records[3].start_time'],
        [sampleRecord('measurement', day, { end_time: `${day}T09:00:00Z` }), 'records[3].end_time'],
        [sampleRecord('measurement', day, { source: { type: 'nokia_health' } }), 'records[3].source.type'],
        [sampleRecord('measurement', day, { type: 'meal' }), 'records[3].type'],
        [sampleRecord('measurement', day, { log_id: undefined }), 'records[3].log_id'],
        [sampleRecord('workout', day, { category: 'skydiving' }), 'records[3].category'],
        [sampleRecord('intraday', day, { metrics: [{ type: 'heart_rate', unit: 'bpm', granularity: 'PT2M', samples: [] }] }), 'records[3].metrics[0].granularity'],
        [sampleRecord('measurement', day, { utc_offset: 99999 }), 'records[3].utc_offset'],
        [sampleRecord('measurement', day, { surprise: 1 }), 'records[3].surprise'],
      ];
      for (const [bad, key] of cases) {
        const res = await u.mobile.post('/mobile/records', { records: [good(), good(), good(), bad, good()] });
        expect({ key, status: res.status }).toEqual({ key, status: 400 });
        expect(Object.keys(res.body.errors)).toEqual([key]);
        expect(res.body.errors[key][0]).toEqual(expect.any(String));
      }
      for (const body of [{}, { records: [] }, { records: 'x' }, { records: [42] }]) {
        const res = await u.mobile.post('/mobile/records', body);
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual(expect.any(Object));
      }
      const malformed = await u.mobile.request('POST', '/mobile/records', undefined, { rawBody: '{"records": [' });
      expect(malformed.status).toBe(400);
      const stored = await list(a, u, 'measurements', `?start_date=${day}&end_date=${day}`);
      expect(stored.body.data).toEqual([]);
      await sleep(300);
      expect(dataEventsOf(u.id)).toEqual([]);
    });

    it("accepts a new user's mobile token in the very next request (read-your-writes)", async () => {
      const uid = newUid();
      expect((await a.api.post(`/organizations/${a.organizationId}/users`, { uid })).status).toBe(201);
      const got = await a.api.get(`/organizations/${a.organizationId}/users/${uid}`);
      const res = await new ApiClient(platform.baseUrl, got.body.mobile.token).post('/mobile/records', { records: [sampleRecord('measurement', day)] });
      expect(res.status).toBe(200);
    });

    it('refuses an unknown mobile token with 401 {"message"}', async () => {
      for (const token of ['not-a-token', '']) {
        const res = await new ApiClient(platform.baseUrl, token || undefined).post('/mobile/records', { records: [sampleRecord('measurement', day)] });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
    });

    it('dedupes identical content, updates changed content under the same id, and deletes — one event per change', async () => {
      const u = await createUser(platform.baseUrl, a);
      const rec = sampleRecord('measurement', day, { log_id: 'scale-1' });
      const first = await u.mobile.post('/mobile/records', { records: [rec] });
      expect(first.status).toBe(200);
      const stored = first.body.data[0];
      await eventually(async () => dataEventsOf(u.id).length === 1);

      // Same content, other key order → same record, no write, no event.
      const reordered = Object.fromEntries(Object.entries(rec).reverse());
      const again = await u.mobile.post('/mobile/records', { records: [reordered] });
      expect(again.body.data[0]).toEqual(stored);

      const changed = await u.mobile.post('/mobile/records', { records: [{ ...rec, metrics: [{ type: 'body_weight', unit: 'kg', value: 71.9 }] }] });
      expect(changed.status).toBe(200);
      const updated = changed.body.data[0];
      expect(updated.id).toBe(stored.id);
      expect(updated.checksum).not.toBe(stored.checksum);
      await eventually(async () => dataEventsOf(u.id).length === 2);
      expect(dataEventsOf(u.id)[1].payload.metrics[0].value).toBe(71.9);
      const listed = await list(a, u, 'measurements', `?start_date=${day}&end_date=${day}`);
      expect(listed.body.data).toEqual([updated]);

      // Another source with the same log_id is another record.
      const other = await u.mobile.post('/mobile/records', { records: [{ ...rec, source: { type: 'health_connect' } }] });
      expect(other.body.data[0].id).not.toBe(stored.id);
      await eventually(async () => dataEventsOf(u.id).length === 3);

      const del = await u.mobile.post('/mobile/records', { records: [{ type: 'measurement', source: { type: 'apple_health' }, log_id: 'scale-1', deleted: true }] });
      expect(del.status).toBe(200);
      expect(del.body.data[0]).toMatchObject({ id: stored.id, deleted_at: expect.any(String) });
      await eventually(async () => dataEventsOf(u.id).length === 4);
      const delEvent = dataEventsOf(u.id)[3];
      expect(delEvent.key).toBe(stored.id);
      expect(delEvent.payload.deleted_at).toEqual(expect.any(String));
      const afterDelete = await list(a, u, 'measurements', `?start_date=${day}&end_date=${day}`);
      expect(afterDelete.body.data.map((r: any) => r.id)).toEqual([other.body.data[0].id]);

      // Deleting again, or deleting something never stored, changes nothing.
      await u.mobile.post('/mobile/records', { records: [{ type: 'measurement', source: { type: 'apple_health' }, log_id: 'scale-1', deleted: true }] });
      const ghost = await u.mobile.post('/mobile/records', { records: [{ type: 'measurement', source: { type: 'apple_health' }, log_id: 'never', deleted: true }] });
      expect(ghost.status).toBe(200);
      expect(ghost.body.data).toEqual([]);
      await sleep(400);
      expect(dataEventsOf(u.id)).toHaveLength(4);
    });

    it('computes utc_offset from the user time zone at start_time (DST) unless the source gave one', async () => {
      const berlin = await createUser(platform.baseUrl, a, { timezone: 'Europe/Berlin' });
      const res = await berlin.mobile.post('/mobile/records', {
        records: [
          sampleRecord('measurement', '2024-03-30', { start_time: '2024-03-30T12:00:00Z', end_time: '2024-03-30T12:00:00Z' }),
          sampleRecord('measurement', '2024-03-31', { start_time: '2024-03-31T12:00:00Z', end_time: '2024-03-31T12:00:00Z' }),
          sampleRecord('measurement', '2024-10-26', { start_time: '2024-10-26T12:00:00Z', end_time: '2024-10-26T12:00:00Z' }),
          sampleRecord('measurement', '2024-10-27', { start_time: '2024-10-27T12:00:00Z', end_time: '2024-10-27T12:00:00Z' }),
          sampleRecord('measurement', '2024-10-27', { utc_offset: -14400 }),
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: any) => [r.utc_offset, r.offset_origin])).toEqual([
        [3600, 'profile'],
        [7200, 'profile'],
        [7200, 'profile'],
        [3600, 'profile'],
        [-14400, 'source'],
      ]);
      const kolkata = await createUser(platform.baseUrl, a, { timezone: 'Asia/Kolkata' });
      const k = await kolkata.mobile.post('/mobile/records', { records: [sampleRecord('sleep', day)] });
      expect(k.body.data[0]).toMatchObject({ utc_offset: 19800, offset_origin: 'profile' });
      const noZone = await createUser(platform.baseUrl, a, { timezone: null });
      const z = await noZone.mobile.post('/mobile/records', { records: [sampleRecord('sleep', day)] });
      expect(z.body.data[0]).toMatchObject({ utc_offset: 0, offset_origin: 'profile' });
    });

    it('files a record under the day of its LOCAL start (day boundaries)', async () => {
      const u = await createUser(platform.baseUrl, a, { timezone: 'Asia/Kolkata' });
      const d = isoDay(-3);
      const prev = isoDay(-4);
      const at = (t: string) => ({ start_time: t, end_time: t });
      const res = await u.mobile.post('/mobile/records', {
        records: [
          sampleRecord('measurement', d, { log_id: 'before', ...at(`${prev}T18:29:59Z`) }), // prev 23:59:59 local
          sampleRecord('measurement', d, { log_id: 'first', ...at(`${prev}T18:30:00Z`) }), // d 00:00 local
          sampleRecord('measurement', d, { log_id: 'last', ...at(`${d}T18:29:59Z`) }), // d 23:59:59 local
          sampleRecord('measurement', d, { log_id: 'after', ...at(`${d}T18:30:00Z`) }), // next 00:00 local
          sampleRecord('measurement', d, { log_id: 'given-offset', utc_offset: -3600, ...at(`${prev}T23:30:00Z`) }), // prev 22:30 local by its own offset
        ],
      });
      expect(res.status).toBe(200);
      const ids = async (from: string, to: string) =>
        (await list(a, u, 'measurements', `?start_date=${from}&end_date=${to}`)).body.data.map((r: any) => r.log_id);
      expect(await ids(d, d)).toEqual(['first', 'last']);
      expect(await ids(prev, prev)).toEqual(['before', 'given-offset']);
      expect(await ids(isoDay(-2), isoDay(-2))).toEqual(['after']);
      expect(await ids(prev, isoDay(-2))).toEqual(['before', 'first', 'given-offset', 'last', 'after']);
    });

    it('applies the date-range rules: default today, 30 days at most, end not before start, formats, history', async () => {
      const u = await createUser(platform.baseUrl, a);
      await u.mobile.post('/mobile/records', {
        records: [
          sampleRecord('summary', today, { start_time: `${today}T00:00:00Z`, end_time: `${today}T00:00:01Z` }),
          sampleRecord('summary', isoDay(-30)),
          sampleRecord('summary', isoDay(-200)),
        ],
      });
      expect((await list(a, u, 'summaries')).body.data).toHaveLength(1);
      expect((await list(a, u, 'summaries', `?start_date=${isoDay(-30)}&end_date=${today}`)).body.data).toHaveLength(2);
      // Older than the organization's history (183 days by default): not served.
      expect((await list(a, u, 'summaries', `?start_date=${isoDay(-210)}&end_date=${isoDay(-190)}`)).body.data).toEqual([]);
      const tooLong = await list(a, u, 'summaries', `?start_date=${isoDay(-31)}&end_date=${today}`);
      expect(tooLong.status).toBe(400);
      expect(Object.keys(tooLong.body.errors)).toEqual(['end_date']);
      const reversed = await list(a, u, 'summaries', `?start_date=${today}&end_date=${isoDay(-1)}`);
      expect(reversed.status).toBe(400);
      expect(Object.keys(reversed.body.errors)).toEqual(['end_date']);
      for (const bad of ['2024-1-01', '01-02-2024', '2024-02-30', 'yesterday']) {
        const res = await list(a, u, 'summaries', `?start_date=${bad}`);
        expect(res.status).toBe(400);
        expect(Object.keys(res.body.errors)).toEqual(['start_date']);
      }
      const badEnd = await list(a, u, 'summaries', `?end_date=2024/01/01`);
      expect(Object.keys(badEnd.body.errors)).toEqual(['end_date']);
    });

    it('answers a read larger than one page (200 records) whole, in start_time order, each record once', async () => {
      const u = await createUser(platform.baseUrl, a, { timezone: 'UTC' });
      // 450 records on 150 start times (3 each): page boundaries fall inside runs of equal times.
      const posted = Array.from({ length: 450 }, (_, i) => {
        const at = new Date(Date.parse(`${day}T00:00:00Z`) + Math.floor(i / 3) * 60_000).toISOString().replace('.000Z', 'Z');
        // Each its own weight: the same content and times under another log id would be a duplicate.
        const metrics = [{ type: 'body_weight', unit: 'kg', value: 60 + i / 10, origin: 'device' }];
        return sampleRecord('measurement', day, { log_id: `page-${i}`, start_time: at, end_time: at, metrics });
      });
      expect((await u.mobile.post('/mobile/records', { records: posted })).status).toBe(200);
      const res = await list(a, u, 'measurements', `?start_date=${day}&end_date=${day}`);
      expect(res.status).toBe(200);
      const got = res.body.data as { log_id: string; start_time: string; id: string }[];
      expect(got).toHaveLength(450);
      expect(new Set(got.map((r) => r.log_id)).size).toBe(450);
      const order = [...got].sort((x, y) => x.start_time.localeCompare(y.start_time) || x.id.localeCompare(y.id));
      expect(got.map((r) => r.id)).toEqual(order.map((r) => r.id));
      // The other days of the range hold none of them.
      expect((await list(a, u, 'measurements', `?start_date=${isoDay(-1)}&end_date=${today}`)).body.data).toEqual([]);
    });

    it('filters by source (one or a comma list); an unknown source gives 422 keyed by type', async () => {
      const u = await createUser(platform.baseUrl, a);
      await u.mobile.post('/mobile/records', {
        records: [
          sampleRecord('sleep', day, { source: { type: 'polar' }, start_time: `${day}T01:00:00Z` }),
          sampleRecord('sleep', day, { source: { type: 'oura', device: { name: 'Ring' } } }),
        ],
      });
      const q = (s: string) => list(a, u, 'sleep', `?start_date=${day}&end_date=${day}${s}`);
      expect((await q('')).body.data.map((r: any) => r.source.type)).toEqual(['polar', 'oura']);
      expect((await q('&source=oura')).body.data.map((r: any) => r.source.type)).toEqual(['oura']);
      expect((await q('&source=oura,polar')).body.data).toHaveLength(2);
      expect((await q('&source=whoop')).body.data).toEqual([]);
      const unknown = await q('&source=polar,nope');
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual({ errors: { type: [expect.stringContaining('nope')] } });
    });

    it('announces a record from a source the user has not connected (once)', async () => {
      const u = await createUser(platform.baseUrl, a);
      await u.mobile.post('/mobile/records', { records: [sampleRecord('sleep', day, { source: { type: 'whoop' } })] });
      await u.mobile.post('/mobile/records', { records: [sampleRecord('sleep', isoDay(-3), { source: { type: 'whoop' } })] });
      await detections.waitFor((e) => e.user_id === u.id && e.source_type === 'whoop');
      await sleep(300);
      expect(detections.events.filter((e) => e.user_id === u.id)).toHaveLength(1);
    });

    it('connects a phone app by its first record, once; one the user disconnected stays so: its uploads are refused', async () => {
      const u = await createUser(platform.baseUrl, a);
      const sourcesOf = async () => ((await a.api.get(`/organizations/${a.organizationId}/users/${u.uid}`)).body.sources as { type: string }[]).map((s) => s.type);
      const post = (d: string) => u.mobile.post('/mobile/records', { records: [sampleRecord('sleep', d, { source: { type: 'health_connect' } })] });
      expect((await post(day)).status).toBe(200);
      await eventually(async () => (await sourcesOf()).includes('health_connect'), 15_000);
      await eventually(async () => events.events.some((e) => e.event_type === 'connection' && e.user_id === u.id), 15_000);
      const off = await new ApiClient(platform.baseUrl).request('POST', `/marketplace/${u.marketplaceToken}/sources/health_connect/disconnect`, {}, { headers: { accept: 'application/json' } });
      expect(off.status).toBe(200);
      expect(off.body.sources.find((s: any) => s.type === 'health_connect')).toMatchObject({ connected: false });
      expect(await sourcesOf()).not.toContain('health_connect');
      expect((await post(isoDay(-2))).status).toBe(422);
      await sleep(1500);
      expect(await sourcesOf()).not.toContain('health_connect');
      const actions = events.events.filter((e) => e.event_type === 'connection' && e.user_id === u.id).map((e) => e.payload.action);
      expect(actions).toEqual(['connected', 'disconnected']);
      // Every accepted upload of a phone store is reported; one of them as the store's first record.
      expect(detections.events.filter((e) => e.user_id === u.id).map((e) => e.upload?.first)).toEqual([true]);
    });

    it("serves no day older than the organization's history_days (operator setting), from the organizations topic", async () => {
      const c = await createTenant(platform.baseUrl);
      const u = await createUser(platform.baseUrl, c, { timezone: 'UTC' });
      const old = isoDay(-5);
      await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', old, { log_id: 'old-1' }), sampleRecord('measurement', day, { log_id: 'new-1' })] });
      const q = `?start_date=${isoDay(-6)}&end_date=${day}`;
      expect((await list(c, u, 'measurements', q)).body.data.map((r: any) => r.log_id)).toEqual(['old-1', 'new-1']);
      const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      expect((await admin.patch(`/admin/organizations/${c.organizationId}/settings`, { history_days: 2 })).status).toBe(200);
      const logIds = async () => (await list(c, u, 'measurements', q)).body.data.map((r: any) => r.log_id).join(',');
      await eventually(async () => (await logIds()) === 'new-1');
      // Only the window moved: the stored record is still there once the window is wide again.
      expect((await admin.patch(`/admin/organizations/${c.organizationId}/settings`, { history_days: 30 })).status).toBe(200);
      await eventually(async () => (await logIds()) === 'old-1,new-1');
    });

    it('isolates users, organizations and customers; unknown users are 404', async () => {
      const uid = `shared-u${Date.now().toString(36)}`;
      const ua = await createUser(platform.baseUrl, a, { uid });
      const ub = await createUser(platform.baseUrl, b, { uid });
      await ua.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day, { log_id: 'a-1' })] });
      await ub.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day, { log_id: 'b-1' })] });
      const q = `?start_date=${day}&end_date=${day}`;
      expect((await list(a, ua, 'measurements', q)).body.data.map((r: any) => r.log_id)).toEqual(['a-1']);
      expect((await list(b, ub, 'measurements', q)).body.data.map((r: any) => r.log_id)).toEqual(['b-1']);
      // b's token on a's organization: refused by the gateway.
      const cross = await b.api.get(`/organizations/${a.organizationId}/users/${uid}/measurements${q}`);
      expect(cross.status).toBe(401);
      const missing = await a.api.get(`/organizations/${a.organizationId}/users/nobody-here/measurements${q}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ errors: [expect.any(String)] });
    });

    it('refuses ingestion for suspended (422) and deleted (401) users, storing nothing', async () => {
      const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      const u = await createUser(platform.baseUrl, a);
      expect((await admin.post(`/admin/organizations/${a.organizationId}/users/${u.uid}/suspend`)).status).toBe(200);
      // The suspension reaches records through the users topic (published after the answer): wait
      // for it with requests that could store nothing, then check a real one is refused.
      await eventually(async () => (await u.mobile.post('/mobile/records', { records: [] })).status === 422);
      const suspended = await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] });
      expect(suspended.status).toBe(422);
      expect(suspended.body).toEqual({ errors: { user: ['user is suspended'] } });
      expect((await list(a, u, 'measurements', `?start_date=${day}&end_date=${day}`)).body.data).toEqual([]);
      expect((await admin.post(`/admin/organizations/${a.organizationId}/users/${u.uid}/unsuspend`)).status).toBe(200);
      await eventually(async () => (await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status === 200);
      expect((await a.api.delete(`/organizations/${a.organizationId}/users/${u.uid}`)).status).toBe(200);
      await eventually(async () => (await u.mobile.post('/mobile/records', { records: [] })).status === 401);
      const deleted = await u.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] });
      expect(deleted.status).toBe(401);
      expect(deleted.body).toEqual({ message: expect.any(String) });
      expect((await list(a, u, 'measurements', `?start_date=${day}&end_date=${day}`)).status).toBe(404);
    });

    it('documents its endpoints in the merged OpenAPI document', async () => {
      const res = await new ApiClient(platform.baseUrl).get('/openapi.json');
      expect(res.status).toBe(200);
      for (const p of ['/mobile/records', ...Object.values(PLURAL).map((x) => `/organizations/{org_id}/users/{uid}/${x}`)]) expect(res.body.paths).toHaveProperty([p]);
    });
  });
}

recordsApiSuite(testRuntime());
