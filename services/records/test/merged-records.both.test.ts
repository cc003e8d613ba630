/**
 * Merging through the gateway: the organization's source priority (customer and operator, 422s),
 * `merged=true` reads of three sources (overlapping and non-overlapping intervals, a source
 * disconnected mid-range, a changed priority), `merged` refused when not true/false, same-source
 * duplicates at ingestion, and a user's data availability (stats written with the records, the
 * sources service's connection events projected). Runs embedded and on the
 * real servers.
 */
import { publishEvents, SourceConnectionEvent, sourceConnectionsTopic } from '@wellstream/contracts';
import { ApiClient, createTenant, eventually, Tenant, TEST_ADMIN_TOKEN, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { createUser, EventRecorder, isoDay, recordTopic, sleep, TestUser } from './records-fixtures';

function mergedRecordsSuite(mode: 'embedded' | 'distributed') {
  describe(`merged records, source priority, duplicates, availability (${mode})`, () => {
    let platform: TestPlatform;
    let a: Tenant;
    let admin: ApiClient;
    let events: EventRecorder;
    const days = [isoDay(-5), isoDay(-4), isoDay(-3), isoDay(-2)];
    const priorityPath = () => `/organizations/${a.organizationId}/source_priority`;
    const list = (u: TestUser, plural: string, query: string) => a.api.get(`/organizations/${a.organizationId}/users/${u.uid}/${plural}${query}`);
    const summary = (source: string, day: string, steps: number, extra: Record<string, unknown> = {}) => ({
      type: 'summary',
      source: { type: source },
      log_id: `${source}-sum-${day}`,
      start_time: `${day}T00:00:00Z`,
      end_time: `${day}T23:59:59Z`,
      category: 'daily',
      metrics: [{ type: 'steps', unit: 'count', value: steps, origin: 'device' }],
      ...extra,
    });

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'merged' });
      a = await createTenant(platform.baseUrl);
      admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      events = await recordTopic(platform.eventLog, 'events');
    }, 120_000);

    afterAll(async () => {
      await events?.stop();
      await platform?.stop();
    }, 60_000);

    it('source priority: the default, a partial setting and its effective orders, the operator endpoint, and 422s naming the field', async () => {
      const initial = await a.api.get(priorityPath());
      expect(initial.status).toBe(200);
      expect(initial.body).toMatchObject({ organization_id: a.organizationId, default: [], resources: {}, metrics: {}, updated_at: null });
      expect(initial.body.effective.summary.indexOf('oura')).toBeLessThan(initial.body.effective.summary.indexOf('apple_health'));

      const put = await a.api.put(priorityPath(), { metrics: { steps: ['samsung_health'] } });
      expect(put.status).toBe(200);
      expect(put.body.metrics).toEqual({ steps: ['samsung_health'] });
      expect((await a.api.get(priorityPath())).body.updated_at).toBe(put.body.updated_at);

      const bad = await a.api.put(priorityPath(), { default: ['oura', 'fitbitz'], metrics: { stepz: ['oura'] }, resources: { summary: ['oura', 'oura'] } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual({
        'default[1]': ['unknown source: fitbitz'],
        'metrics.stepz': ['unknown metric type: stepz'],
        'resources.summary[1]': ['oura is listed twice'],
      });
      expect((await a.api.put(priorityPath(), { default: 'oura' })).status).toBe(400);
      // Nothing of a refused setting was stored.
      expect((await a.api.get(priorityPath())).body.metrics).toEqual({ steps: ['samsung_health'] });

      const adminPath = `/admin/organizations/${a.organizationId}/source_priority`;
      const byOperator = await admin.put(adminPath, { resources: { sleep: ['withings'] } });
      expect(byOperator.status).toBe(200);
      expect((await a.api.get(priorityPath())).body.resources).toEqual({ sleep: ['withings'] });
      expect((await admin.get(adminPath)).body.resources).toEqual({ sleep: ['withings'] });
      expect((await a.api.put(adminPath, {})).status).toBe(401);
      expect((await admin.put('/admin/organizations/org-that-does-not-exist/source_priority', {})).status).toBe(404);
      expect((await admin.put(adminPath, { metrics: { steps: ['nope'] } })).status).toBe(422);
      // Back to the default for the reads below.
      expect((await a.api.put(priorityPath(), {})).body.updated_at).not.toBeNull();
    });

    it('merged=true: one summary per day from three sources by priority, with provenance; plain reads unchanged; merged=invalid is 400', async () => {
      const u = await createUser(platform.baseUrl, a);
      const records = [];
      for (const [i, day] of days.entries()) {
        // Oura stops after the second day (disconnected mid-range); the two phone apps go on.
        if (i < 2) records.push(summary('oura', day, 9000 + i));
        records.push(summary('apple_health', day, 7000 + i, { metrics: [{ type: 'steps', unit: 'count', value: 7000 + i, origin: 'device' }, { type: 'floors_climbed', unit: 'count', value: 3, origin: 'device' }] }));
        records.push(summary('samsung_health', day, 100 + i));
      }
      expect((await u.mobile.post('/mobile/records', { records })).status).toBe(200);
      const range = `?start_date=${days[0]}&end_date=${days[3]}`;
      const plain = await list(u, 'summaries', range);
      expect(plain.body.data).toHaveLength(records.length);
      expect(plain.body.data.every((r: any) => r.merged === undefined)).toBe(true);
      expect((await list(u, 'summaries', `${range}&merged=false`)).body).toEqual(plain.body);

      const merged = await list(u, 'summaries', `${range}&merged=true`);
      expect(merged.status).toBe(200);
      expect(merged.body.data.map((m: any) => m.local_date)).toEqual(days);
      const steps = merged.body.data.map((m: any) => m.metrics.find((x: any) => x.type === 'steps'));
      expect(steps.map((s: any) => [s.value, s.provenance[0].source])).toEqual([
        [9000, 'oura'],
        [9001, 'oura'],
        [7002, 'apple_health'],
        [7003, 'apple_health'],
      ]);
      const floors = merged.body.data[0].metrics.find((x: any) => x.type === 'floors_climbed');
      expect(floors).toMatchObject({ value: 3, provenance: [{ source: 'apple_health' }] });
      expect(merged.body.data[0]).toMatchObject({ type: 'summary', merged: true, user: { uid: u.uid } });

      // The organization ranks the phone first for steps: only that metric follows.
      expect((await a.api.put(priorityPath(), { metrics: { steps: ['apple_health'] } })).status).toBe(200);
      const phoneFirst = await list(u, 'summaries', `${range}&merged=true`);
      expect(phoneFirst.body.data[0].metrics.find((x: any) => x.type === 'steps').value).toBe(7000);
      // `source` narrows what is merged.
      const samsungOnly = await list(u, 'summaries', `${range}&merged=true&source=samsung_health`);
      expect(samsungOnly.body.data[0].metrics[0]).toMatchObject({ value: 100, provenance: [{ source: 'samsung_health' }] });
      expect((await a.api.put(priorityPath(), {})).status).toBe(200);

      const invalid = await list(u, 'summaries', `${range}&merged=yes`);
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors.merged).toEqual(expect.any(Array));
    });

    it('merged=true on sleep (one per night, non-overlapping parts combined) and workouts (overlapping duplicates named)', async () => {
      const u = await createUser(platform.baseUrl, a);
      const [d0, d1] = [days[1], days[2]];
      const sleepOf = (source: string, log: string, start: string, end: string, secs: number) => ({
        type: 'sleep',
        source: { type: source },
        log_id: log,
        start_time: start,
        end_time: end,
        metrics: [{ type: 'sleep_duration', unit: 's', value: secs, origin: 'device' }],
      });
      const workout = (source: string, log: string, start: string, end: string) => ({
        type: 'workout',
        source: { type: source },
        log_id: log,
        start_time: start,
        end_time: end,
        category: 'running',
        metrics: [{ type: 'distance', unit: 'm', value: 5000 }],
      });
      const posted = await u.mobile.post('/mobile/records', {
        records: [
          sleepOf('oura', 's1', `${d0}T22:30:00Z`, `${d1}T06:30:00Z`, 26000),
          sleepOf('apple_health', 's2', `${d1}T00:10:00Z`, `${d1}T06:00:00Z`, 20000),
          sleepOf('apple_health', 's3', `${d1}T13:00:00Z`, `${d1}T13:40:00Z`, 2400),
          workout('polar', 'w1', `${d1}T17:00:00Z`, `${d1}T18:00:00Z`),
          workout('strava', 'w2', `${d1}T17:01:00Z`, `${d1}T17:59:00Z`),
        ],
      });
      expect(posted.status).toBe(200);
      const nights = await list(u, 'sleep', `?start_date=${d0}&end_date=${d1}&merged=true`);
      expect(nights.status).toBe(200);
      expect(nights.body.data.map((n: any) => n.local_date)).toEqual([d0, d1]);
      expect(nights.body.data[0].metrics[0]).toMatchObject({ value: 26000, provenance: [{ source: 'oura' }] });
      expect(nights.body.data[1].metrics[0]).toMatchObject({ value: 2400, provenance: [{ source: 'apple_health', log_id: 's3' }] });
      const workouts = await list(u, 'workouts', `?start_date=${d1}&end_date=${d1}&merged=true`);
      expect(workouts.body.data).toHaveLength(1);
      expect(workouts.body.data[0]).toMatchObject({ source: { type: 'polar' }, merged: true, duplicates: [{ source: 'strava', log_id: 'w2' }] });
    });

    it('same-source duplicates: a record re-sent under another log_id is answered as the stored one with duplicate_of; nothing stored or emitted', async () => {
      const u = await createUser(platform.baseUrl, a);
      const day = days[0];
      const first = await u.mobile.post('/mobile/records', { records: [summary('apple_health', day, 4321)] });
      expect(first.status).toBe(200);
      const original = first.body.data[0];
      await eventually(async () => events.events.some((e) => e.key === original.id));
      const again = summary('apple_health', day, 4321, { log_id: 'another-log-id' });
      const res = await u.mobile.post('/mobile/records', { records: [again, { ...again, log_id: 'a-third' }, summary('apple_health', day, 4322, { log_id: 'changed' })] });
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ id: original.id, log_id: original.log_id, checksum: original.checksum, duplicate_of: original.id });
      expect(res.body.data[1]).toMatchObject({ duplicate_of: original.id });
      expect(res.body.data[2].duplicate_of).toBeUndefined();
      const stored = await list(u, 'summaries', `?start_date=${day}&end_date=${day}`);
      expect(stored.body.data.map((r: any) => r.log_id).sort()).toEqual([original.log_id, 'changed'].sort());
      await sleep(500);
      expect(events.events.filter((e) => e.user_id === u.id && e.event_type === 'data')).toHaveLength(2);
      // Another source's identical record is no duplicate (merging decides between sources).
      const other = await u.mobile.post('/mobile/records', { records: [summary('health_connect', day, 4321, { log_id: 'another-log-id' })] });
      expect(other.body.data[0].duplicate_of).toBeUndefined();
      // Once the original is deleted, its content may be stored again.
      expect((await u.mobile.post('/mobile/records', { records: [{ type: 'summary', source: { type: 'apple_health' }, log_id: original.log_id, deleted: true }] })).status).toBe(200);
      const revived = await u.mobile.post('/mobile/records', { records: [again] });
      expect(revived.body.data[0]).toMatchObject({ log_id: 'another-log-id' });
      expect(revived.body.data[0].duplicate_of).toBeUndefined();
    });

    it('availability: first and last record time per source and resource, expected or not, and the provider connection (sync, backfill)', async () => {
      const u = await createUser(platform.baseUrl, a);
      const path = `/organizations/${a.organizationId}/users/${u.uid}/availability`;
      const empty = await a.api.get(path);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ user: { uid: u.uid, user_id: u.id }, sources: [] });
      const posted = await u.mobile.post('/mobile/records', {
        records: [
          summary('apple_health', days[0], 100),
          summary('apple_health', days[2], 300),
          // Apple Health is not expected to deliver cgm: listed all the same, marked unexpected.
          { type: 'cgm', source: { type: 'apple_health' }, log_id: 'g1', start_time: `${days[1]}T08:00:00Z`, end_time: `${days[1]}T08:10:00Z`, metrics: [{ type: 'blood_glucose', unit: 'mg/dl', origin: 'device', granularity: 'PT5M', samples: [{ time: `${days[1]}T08:00:00Z`, value: 101 }] }] },
        ],
      });
      expect(posted.status).toBe(200);
      const now = new Date().toISOString();
      const connection = (action: SourceConnectionEvent['action'], extra: Partial<SourceConnectionEvent> = {}): SourceConnectionEvent => ({
        type: 'source.connection',
        action,
        user_id: u.id,
        organization_id: a.organizationId,
        source_type: 'oura',
        status: 'active',
        connected_at: now,
        last_synced_at: now,
        backfill: { state: 'running', progress: 0.5, start: `${days[0]}T00:00:00.000Z`, end: now },
        occurred_at: new Date().toISOString(),
        ...extra,
      });
      await publishEvents(platform.eventLog, sourceConnectionsTopic, [
        connection('connected'),
        connection('backfill_completed', { resource: 'sleep', range: { start: `${days[0]}T00:00:00.000Z`, end: now }, occurred_at: new Date(Date.now() + 1).toISOString() }),
      ]);
      const got = await eventually(async () => {
        const r = await a.api.get(path);
        const ready = (type: string, pred: (s: any) => boolean) => r.body.sources?.some((s: any) => s.type === type && pred(s));
        // The phone app is connected by its first record (the users service's detection, a moment later).
        // Oura counts as connected once the users service's snapshot (it applies the same events) reaches records too.
        return ready('oura', (s) => s.status === 'active' && s.resources.find((x: any) => x.resource === 'sleep')?.backfill?.state === 'done') && ready('apple_health', (s) => s.connected) ? r : undefined;
      }, 15_000);
      const apple = got.body.sources.find((s: any) => s.type === 'apple_health');
      expect(apple).toMatchObject({ kind: 'mobile', connected: true, status: 'active' });
      const sum = apple.resources.find((r: any) => r.resource === 'summary');
      expect(sum).toMatchObject({ expected: true, first_time: `${days[0]}T00:00:00Z`, last_time: `${days[2]}T23:59:59Z`, records: 2, backfill: null });
      expect(apple.resources.find((r: any) => r.resource === 'cgm')).toMatchObject({ expected: false, records: 1 });
      expect(apple.resources.find((r: any) => r.resource === 'nutrition')).toMatchObject({ expected: true, records: 0, first_time: null });
      const oura = got.body.sources.find((s: any) => s.type === 'oura');
      expect(oura).toMatchObject({ kind: 'cloud', status: 'active', last_synced_at: now, backfill: { state: 'running', progress: 0.5 } });
      expect(oura.resources.find((r: any) => r.resource === 'summary').backfill).toMatchObject({ state: 'running' });
      expect(oura.resources.some((r: any) => r.resource === 'measurement')).toBe(false);
      expect((await a.api.get(`/organizations/${a.organizationId}/users/nobody-here/availability`)).status).toBe(404);
    });
  });
}

mergedRecordsSuite(testRuntime());
