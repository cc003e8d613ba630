/**
 * The rules endpoints and rule events through the gateway, on the whole platform: the feature
 * switch (global and per organization), validation, CRUD, 404s, evaluation raising `rule` events on
 * streams, and suspension deleting rules. Users and data reach the rules service the way they do in
 * production, as events on the `users` and `events` topics (published here directly, so the suite
 * depends on no other service's progress).
 */
import { randomUUID } from 'node:crypto';
import type { EventLog } from '@wellstream/bus';
import { CustomerEvent, customerEventsTopic, publishEvents, UserEvent, userEventsTopic } from '@wellstream/contracts';
import { ApiClient, byRuntime, connectSse, createTenant, eventually, SseConnection, Tenant, TEST_ADMIN_TOKEN, testRecord, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

/** A random uid part without digits: eight random hex digits look like a phone number about 2 % of the time (refused). */
const letters = () => randomUUID().replace(/[^a-f]/g, '').slice(0, 10).padEnd(10, 'x');

const EVALUATE_MS = 100;
const DISABLED = { errors: ['the rules feature is disabled'] };

const rule = (over: Record<string, unknown> = {}) => ({
  type: 'user/missing_data',
  window: 'P3D',
  message: 'Please weigh yourself',
  metric: { type: 'body_weight' },
  threshold: { value: 1, comparator: 'less_than' },
  ...over,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TestUser {
  id: string;
  uid: string;
}

async function publishUser(log: EventLog, tenant: Tenant, type: UserEvent['type'] = 'user.created', user?: TestUser): Promise<TestUser> {
  const u = user ?? { id: `usr_${randomUUID()}`, uid: `patient-${letters()}` };
  const at = new Date().toISOString();
  const status = type === 'user.suspended' ? 'suspended' : type === 'user.deleted' ? 'deleted' : 'active';
  await publishEvents(log, userEventsTopic, [
    {
      type,
      occurred_at: at,
      user: {
        id: u.id,
        uid: u.uid,
        organization_id: tenant.organizationId,
        customer_id: tenant.customerId,
        status,
        timezone: null,
        timezone_origin: 'profile',
        country_code: null,
        mobile_token: `mob_${randomUUID()}`,
        sources: [],
        created_at: at,
        updated_at: at,
        deleted_at: type === 'user.deleted' ? at : null,
      },
    },
  ]);
  return u;
}

/** A weight measurement as records publishes it (the payload is the record); resolves to its start_time in ms. */
async function publishWeight(log: EventLog, tenant: Tenant, user: TestUser): Promise<number> {
  const id = `rec_${randomUUID()}`;
  const now = new Date().toISOString();
  const event: CustomerEvent = {
    id: randomUUID(),
    event_type: 'data',
    key: id,
    customer_id: tenant.customerId,
    organization_id: tenant.organizationId,
    user_id: user.id,
    resource: 'measurement',
    start_time: now,
    created_at: now,
    payload: testRecord('measurement', {
      id,
      user: { uid: user.uid, user_id: user.id, organization_id: tenant.organizationId },
      start_time: now,
      metrics: [{ type: 'body_weight', unit: 'kg', value: 81.2, origin: 'device' }],
    }),
  };
  await publishEvents(log, customerEventsTopic, [event]);
  return Date.parse(now);
}

function rulesApiSuite(mode: 'embedded' | 'distributed') {
  describe(`rules API, feature on globally (${mode})`, () => {
    let platform: TestPlatform;
    let admin: ApiClient;
    let tenant: Tenant;
    let user: TestUser;
    const open: SseConnection[] = [];
    const rulesOf = (u: TestUser, t: Tenant = tenant) => `/organizations/${t.organizationId}/users/${encodeURIComponent(u.uid)}/rules`;

    /** Waits until the rules service knows the user (its projection follows the users topic). */
    const known = (u: TestUser, t: Tenant = tenant) => eventually(async () => (await t.api.get(rulesOf(u, t))).status === 200);

    beforeAll(async () => {
      platform = await startTestPlatform({
        mode,
        label: 'rules',
        env: { WELLSTREAM_RULES_ENABLED: 'true', WELLSTREAM_RULES_EVALUATE_INTERVAL_MS: String(EVALUATE_MS) },
      });
      admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      tenant = await createTenant(platform.baseUrl);
      user = await publishUser(platform.eventLog, tenant);
      await known(user);
    }, 120_000);
    afterAll(async () => {
      for (const c of open) c.close();
      await platform?.stop();
    });

    it('creates, reads, lists, updates and deletes rules', async () => {
      const created = await tenant.api.post(rulesOf(user), rule({ metric: { type: 'body_weight', unit: 'kg', origin: 'device', sub_type: 'x' } }));
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        type: 'user/missing_data',
        window: 'P3D',
        message: 'Please weigh yourself',
        metric: { type: 'body_weight', unit: 'kg', origin: 'device', sub_type: 'x' },
        threshold: { value: 1, comparator: 'less_than' },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const id = created.body.id;

      const got = await tenant.api.get(`${rulesOf(user)}/${id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);

      const second = await tenant.api.post(rulesOf(user), rule({ window: 'PT12H', metric: { type: 'steps' }, threshold: { value: 2.5, comparator: 'greather_than' } }));
      expect(second.status).toBe(201);
      const list = await tenant.api.get(rulesOf(user));
      expect(list.status).toBe(200);
      expect(list.body.data.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([id, second.body.id]));

      const updated = await tenant.api.put(`${rulesOf(user)}/${id}`, rule({ window: 'P1W', message: 'Weekly weigh-in', threshold: { value: 2, comparator: 'equal_to' } }));
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        id,
        window: 'P1W',
        message: 'Weekly weigh-in',
        metric: { type: 'body_weight', unit: null, origin: null, sub_type: null },
        threshold: { value: 2, comparator: 'equal_to' },
        created_at: created.body.created_at,
      });

      const deleted = await tenant.api.delete(`${rulesOf(user)}/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ ...updated.body, deleted_at: expect.any(String) });
      expect((await tenant.api.get(`${rulesOf(user)}/${id}`)).status).toBe(404);
      await tenant.api.delete(`${rulesOf(user)}/${second.body.id}`);
      expect((await tenant.api.get(rulesOf(user))).body).toEqual({ data: [] });
    });

    it('answers 404 with an error list for an unknown user or rule id', async () => {
      const ghost = { id: 'usr_ghost', uid: 'nobody-here' };
      for (const res of [
        await tenant.api.get(rulesOf(ghost)),
        await tenant.api.post(rulesOf(ghost), rule()),
        await tenant.api.get(`${rulesOf(ghost)}/rul_x`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [expect.stringContaining('nobody-here')] });
      }
      for (const res of [
        await tenant.api.get(`${rulesOf(user)}/rul_missing`),
        await tenant.api.put(`${rulesOf(user)}/rul_missing`, rule()),
        await tenant.api.delete(`${rulesOf(user)}/rul_missing`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [expect.stringContaining('rul_missing')] });
      }
    });

    it('keeps users of another customer out (their uid is unknown here)', async () => {
      const other = await createTenant(platform.baseUrl);
      const theirs = await publishUser(platform.eventLog, other);
      await known(theirs, other);
      // Same uid, this tenant's organization: not their user.
      expect((await tenant.api.get(rulesOf(theirs))).status).toBe(404);
      // Their organization with this tenant's token: the gateway refuses.
      expect((await tenant.api.get(rulesOf(theirs, other))).status).toBe(401);
    });

    it('rejects invalid rules with 422 keyed by field, malformed JSON with 400, and stores nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ type: 'user/other' }, 'type'],
        [{ window: 'three days' }, 'window'],
        [{ window: 'P0D' }, 'window'],
        [{ window: 'P2Y' }, 'window'],
        [{ window: undefined }, 'window'],
        [{ message: undefined }, 'message'],
        [{ metric: { type: 'weight' } }, 'metric.type'],
        [{ metric: { type: 'body_weight', unit: 'mmol/l' } }, 'metric.unit'],
        [{ metric: { type: 'body_weight', origin: 'estimated' } }, 'metric.origin'],
        [{ threshold: { value: 'one', comparator: 'less_than' } }, 'threshold.value'],
        [{ threshold: { value: 1, comparator: 'greater_than' } }, 'threshold.comparator'],
      ];
      for (const [patch, field] of cases) {
        const res = await tenant.api.post(rulesOf(user), rule(patch));
        expect({ patch, status: res.status }).toEqual({ patch, status: 422 });
        expect(Object.keys(res.body.errors)).toEqual([field]);
      }
      const created = await tenant.api.post(rulesOf(user), rule());
      const put = await tenant.api.put(`${rulesOf(user)}/${created.body.id}`, rule({ threshold: { value: 1, comparator: 'more' } }));
      expect(put.status).toBe(422);
      expect(put.body.errors['threshold.comparator']).toHaveLength(1);
      expect((await tenant.api.get(`${rulesOf(user)}/${created.body.id}`)).body.threshold.comparator).toBe('less_than');

      const malformed = await tenant.api.request('POST', rulesOf(user), undefined, { rawBody: '{"type": ' });
      expect(malformed.status).toBe(400);
      expect((await tenant.api.get(rulesOf(user))).body.data).toHaveLength(1);
      await tenant.api.delete(`${rulesOf(user)}/${created.body.id}`);
    });

    it('an organization switched off by the operator refuses every endpoint; null follows the global flag again', async () => {
      const t = await createTenant(platform.baseUrl);
      const u = await publishUser(platform.eventLog, t);
      await known(u, t);
      const created = await t.api.post(rulesOf(u, t), rule());
      expect(created.status).toBe(201);

      expect((await admin.patch(`/admin/organizations/${t.organizationId}/settings`, { rules_enabled: false })).status).toBe(200);
      await eventually(async () => (await t.api.get(rulesOf(u, t))).status === 422);
      const path = `${rulesOf(u, t)}/${created.body.id}`;
      for (const res of [
        await t.api.get(rulesOf(u, t)),
        await t.api.post(rulesOf(u, t), rule()),
        await t.api.get(path),
        await t.api.put(path, rule()),
        await t.api.delete(path),
        // Refused before anything else is looked at: unknown users and invalid bodies too.
        await t.api.post(rulesOf({ id: 'x', uid: 'ghost' }, t), { nonsense: true }),
      ]) {
        expect(res.status).toBe(422);
        expect(res.body).toEqual(DISABLED);
      }

      await admin.patch(`/admin/organizations/${t.organizationId}/settings`, { rules_enabled: null });
      await eventually(async () => (await t.api.get(rulesOf(u, t))).status === 200);
      expect((await t.api.get(path)).status).toBe(200);
    });

    it('raises one rule event per episode on streams filtered on rule, never on streams filtered on data', async () => {
      const u = await publishUser(platform.eventLog, tenant);
      await known(u);
      const makeStream = async (filter: string) => {
        const res = await tenant.api.post('/streams', { name: `rules-${filter}-${randomUUID().slice(0, 8)}`, event_type_filter: [filter] });
        expect(res.status).toBe(201);
        const c = await connectSse(`${platform.baseUrl}/streams/${res.body.id}/connect?token=${tenant.token}`);
        open.push(c);
        expect(c.status).toBe(200);
        return c;
      };
      const ruleStream = await makeStream('rule');
      const dataStream = await makeStream('data');
      const mine = (c: SseConnection, event: string) => c.events.filter((e) => e.event === event && e.json().user?.user_id === u.id);

      const created = await tenant.api.post(rulesOf(u), rule({ window: 'PT2S', message: 'No weight for 2 seconds' }));
      expect(created.status).toBe(201);
      const createdAt = Date.parse(created.body.created_at);

      const first = await ruleStream.waitFor((e) => e.event === 'rule' && e.json().user.user_id === u.id, 15_000);
      const payload = first.json();
      expect(Date.parse(payload.created_at) - createdAt).toBeGreaterThanOrEqual(2000);
      expect(payload).toEqual({
        user: { uid: u.uid, user_id: u.id, organization_id: tenant.organizationId },
        rule: {
          id: created.body.id,
          type: 'user/missing_data',
          window: 'PT2S',
          message: 'No weight for 2 seconds',
          metric: { type: 'body_weight', sub_type: null, unit: null, origin: null },
          threshold: { value: 1, comparator: 'less_than' },
        },
        data: [{ type: 'body_weight', data: { count: 0 } }],
        created_at: expect.any(String),
      });
      expect(first.id).toBeTruthy();

      // Many evaluation passes later: still one event for this episode.
      await sleep(10 * EVALUATE_MS);
      expect(mine(ruleStream, 'rule')).toHaveLength(1);

      // A weight arrives: the rule re-arms; 2 s after the weight, the next episode begins.
      // The weight's own time, not the moment publishing returned: publishing can take longer than
      // the evaluation interval on a loaded machine, and the window counts from the record's time.
      const weighed = await publishWeight(platform.eventLog, tenant, u);
      await dataStream.waitFor((e) => e.event === 'data' && e.json().user?.user_id === u.id);
      await eventually(async () => mine(ruleStream, 'rule').length === 2, 15_000);
      const second = mine(ruleStream, 'rule')[1].json();
      expect(Date.parse(second.created_at)).toBeGreaterThanOrEqual(weighed + 2000);

      expect(mine(dataStream, 'rule')).toHaveLength(0);
      expect(mine(ruleStream, 'data')).toHaveLength(0);
      await tenant.api.delete(`${rulesOf(u)}/${created.body.id}`);
    }, 60_000);

    it('deletes all rules of a user when the user is suspended; a suspended user gets no new rules', async () => {
      const u = await publishUser(platform.eventLog, tenant);
      await known(u);
      for (const window of ['P1D', 'P2D']) expect((await tenant.api.post(rulesOf(u), rule({ window }))).status).toBe(201);
      expect((await tenant.api.get(rulesOf(u))).body.data).toHaveLength(2);

      await publishUser(platform.eventLog, tenant, 'user.suspended', u);
      await eventually(async () => (await tenant.api.get(rulesOf(u))).body.data?.length === 0);
      const refused = await tenant.api.post(rulesOf(u), rule());
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ errors: [expect.stringMatching(/suspended/)] });

      await publishUser(platform.eventLog, tenant, 'user.deleted', u);
      await eventually(async () => (await tenant.api.get(rulesOf(u))).status === 404);
    });

    it('end to end with the users and records services: user created by POST, weights posted by the mobile endpoint, suspension by the operator', async () => {
      const uid = `e2e-${letters()}`;
      const users = `/organizations/${tenant.organizationId}/users`;
      expect((await tenant.api.post(users, { uid, location: { timezone: 'UTC', country_code: null } })).status).toBe(201);
      const profile = (await tenant.api.get(`${users}/${uid}`)).body as { id: string; mobile: { token: string } };
      const u = { id: profile.id, uid };
      const stream = await tenant.api.post('/streams', { name: `rules-e2e-${uid}`, event_type_filter: ['rule'] });
      const ruleStream = await connectSse(`${platform.baseUrl}/streams/${stream.body.id}/connect?token=${tenant.token}`);
      open.push(ruleStream);
      // Each hop (records, the log, rules, streams) is a process of its own on real servers: a loaded
      // CI run once needed more than 15 s from the weight to the rule event there (4.5 s alone).
      const hopsMs = byRuntime({ embedded: 15_000, distributed: 60_000 });
      const ruleEvents = () => ruleStream.events.filter((e) => e.event === 'rule' && e.json().user.uid === uid);

      // Right after creating the user: the rules service waits for its projection instead of a 404.
      const created = await tenant.api.post(rulesOf(u), rule({ window: 'PT2S', metric: { type: 'body_weight', unit: 'kg' } }));
      expect(created.status).toBe(201);
      await eventually(async () => ruleEvents().length === 1, hopsMs);
      expect(ruleEvents()[0].json().user).toEqual({ uid, user_id: u.id, organization_id: tenant.organizationId });

      const mobile = new ApiClient(platform.baseUrl, profile.mobile.token);
      await eventually(async () => (await mobile.post('/mobile/records', {})).status !== 401, 15_000);
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const posted = await mobile.post('/mobile/records', {
        records: [
          {
            type: 'measurement',
            source: { type: 'apple_health' },
            log_id: `scale-${uid}`,
            start_time: now,
            end_time: now,
            metrics: [{ type: 'body_weight', unit: 'kg', value: 72.4, origin: 'device' }],
          },
        ],
      });
      expect(posted.status).toBe(200);
      // The weight re-arms the rule; two seconds after it, the next episode raises the second event.
      await eventually(async () => ruleEvents().length === 2, hopsMs);
      expect(Date.parse(ruleEvents()[1].json().created_at)).toBeGreaterThanOrEqual(Date.parse(now) + 2000);
      await sleep(5 * EVALUATE_MS);
      // No weight since: the second episode goes on and raises nothing more.
      expect(ruleEvents().length).toBe(2);

      const suspended = await admin.post(`/admin/organizations/${tenant.organizationId}/users/${uid}/suspend`);
      expect(suspended.status).toBe(200);
      await eventually(async () => (await tenant.api.get(rulesOf(u))).body.data?.length === 0);
      expect((await tenant.api.get(`${rulesOf(u)}/${created.body.id}`)).status).toBe(404);
    }, byRuntime({ embedded: 60_000, distributed: 180_000 }));

    it('serves its OpenAPI part, merged into the gateway document', async () => {
      const rules = platform.services.find((s) => s.name === 'rules')!;
      const part = (await (await fetch(`${rules.url}/openapi.json`)).json()) as { paths: object; components: { schemas: Record<string, unknown> } };
      expect(Object.keys(part.paths)).toEqual(['/organizations/{org_id}/users/{uid}/rules', '/organizations/{org_id}/users/{uid}/rules/{rule_id}']);
      expect(part.components.schemas.Rule).toBeDefined();
      const merged = (await (await fetch(`${platform.baseUrl}/openapi.json`)).json()) as { paths: Record<string, object> };
      expect(merged.paths['/organizations/{org_id}/users/{uid}/rules/{rule_id}']).toHaveProperty('put');
    });
  });

  describe(`rules API, feature off globally (${mode})`, () => {
    let platform: TestPlatform;
    let admin: ApiClient;

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'rulesoff', env: { WELLSTREAM_RULES_EVALUATE_INTERVAL_MS: String(EVALUATE_MS) } });
      admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    }, 120_000);
    afterAll(() => platform?.stop());

    it('refuses every rule endpoint with the disabled error (before looking at users or ids)', async () => {
      const t = await createTenant(platform.baseUrl);
      const u = await publishUser(platform.eventLog, t);
      const base = `/organizations/${t.organizationId}/users/${u.uid}/rules`;
      await sleep(300);
      for (const res of [
        await t.api.get(base),
        await t.api.post(base, rule()),
        await t.api.get(`${base}/rul_1`),
        await t.api.put(`${base}/rul_1`, rule()),
        await t.api.delete(`${base}/rul_1`),
      ]) {
        expect(res.status).toBe(422);
        expect(res.body).toEqual(DISABLED);
      }
    });

    it('works for an organization the operator switched on, and stops again when switched off', async () => {
      const t = await createTenant(platform.baseUrl);
      const u = await publishUser(platform.eventLog, t);
      const base = `/organizations/${t.organizationId}/users/${u.uid}/rules`;
      expect((await admin.patch(`/admin/organizations/${t.organizationId}/settings`, { rules_enabled: true })).status).toBe(200);
      await eventually(async () => (await t.api.get(base)).status === 200);
      const created = await t.api.post(base, rule({ window: 'PT1S' }));
      expect(created.status).toBe(201);

      // Another organization of the same platform stays off.
      const other = await createTenant(platform.baseUrl);
      expect((await other.api.get(`/organizations/${other.organizationId}/users/x/rules`)).body).toEqual(DISABLED);

      await admin.patch(`/admin/organizations/${t.organizationId}/settings`, { rules_enabled: false });
      await eventually(async () => (await t.api.get(base)).status === 422);
      expect((await t.api.delete(`${base}/${created.body.id}`)).body).toEqual(DISABLED);
    });
  });
}

rulesApiSuite(testRuntime());
