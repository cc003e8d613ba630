/**
 * The operator's reads, through the gateway as an operator would use them: customers,
 * organizations and tokens (by prefix, with their hourly usage), records ingested per organization
 * per day, connected sources per type; and what bad input, unknown ids and developer tokens get.
 * Every answer is checked against the published OpenAPI document by ApiClient. Runs embedded and on
 * Kafka/MongoDB API/Redis.
 */
import { createHash } from 'node:crypto';
import { ApiClient, byRuntime, clearOfTheHourTurn, createTenant, Tenant, TEST_ADMIN_TOKEN, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

// One time for every post of the run: a re-post must be identical to count as nothing stored.
const t = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function measurement(logId: string, kg: number, extra: Record<string, unknown> = {}) {
  return { type: 'measurement', source: { type: 'withings' }, log_id: logId, start_time: t, end_time: t, metrics: [{ type: 'body_weight', unit: 'kg', value: kg, origin: 'device' }], ...extra };
}

function operatorReadsSuite(mode: 'embedded' | 'distributed'): void {
  describe(`operator reads (${mode})`, () => {
    let platform: TestPlatform;
    let admin: ApiClient;
    let tenant: Tenant;

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'operator-reads', env: { WELLSTREAM_DEMO_BACKFILL_DAYS: '0', WELLSTREAM_DEMO_TICK_MS: '600000' } });
      admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      tenant = await createTenant(platform.baseUrl, { name: `Reads ${mode}`, rateLimitPerHour: 40 });
    });
    afterAll(() => platform?.stop());

    it('lists and gets customers and their organizations, paged like the user list', async () => {
      const second = await admin.post(`/admin/customers/${tenant.customerId}/organizations`, { name: 'Second org' });
      expect(second.status).toBe(201);
      const other = await createTenant(platform.baseUrl, { name: 'Someone else' });

      const got = await admin.get(`/admin/customers/${tenant.customerId}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ id: tenant.customerId, name: `Reads ${mode}`, created_at: expect.any(String) });

      const newestFirst = await admin.get('/admin/customers?sort=-created_at&limit=2');
      expect(newestFirst.status).toBe(200);
      expect(newestFirst.body.meta).toEqual({ offset: 0, limit: 2, total: expect.any(Number), sort: '-created_at' });
      expect(newestFirst.body.data.map((c: { id: string }) => c.id)).toEqual([other.customerId, tenant.customerId]);
      const all = await admin.get('/admin/customers');
      expect(all.body.meta).toEqual({ offset: 0, limit: 25, total: newestFirst.body.meta.total, sort: 'created_at' });

      const orgs = await admin.get(`/admin/customers/${tenant.customerId}/organizations`);
      expect(orgs.status).toBe(200);
      expect(orgs.body.data.map((o: { id: string }) => o.id)).toEqual([tenant.organizationId, second.body.id]);
      expect(orgs.body.meta).toEqual({ offset: 0, limit: 25, total: 2, sort: 'created_at' });
      const page2 = await admin.get(`/admin/customers/${tenant.customerId}/organizations?offset=1&limit=1`);
      expect(page2.body).toEqual({ data: [second.body], meta: { offset: 1, limit: 1, total: 2, sort: 'created_at' } });

      const org = await admin.get(`/admin/organizations/${tenant.organizationId}`);
      expect(org.status).toBe(200);
      expect(org.body).toMatchObject({ id: tenant.organizationId, customer_id: tenant.customerId, settings: expect.any(Object) });
    });

    it('lists a customer\'s tokens by prefix, never in full, with requests this hour against the limit', async () => {
      const revokedToken = (await admin.post(`/admin/customers/${tenant.customerId}/tokens`, { rate_limit_per_hour: 7 })).body.token as string;
      expect((await admin.delete(`/admin/tokens/${revokedToken}`)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await tenant.api.get('/streams')).status).toBe(200);

      const list = await admin.get(`/admin/customers/${tenant.customerId}/tokens`);
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(tenant.token);
      expect(list.text).not.toContain(revokedToken);
      expect(list.body.meta).toEqual({ offset: 0, limit: 25, total: 2, sort: 'created_at' });
      const [active, revoked] = list.body.data;
      expect(active).toEqual({
        id: sha256(tenant.token),
        prefix: tenant.token.slice(0, 12),
        customer_id: tenant.customerId,
        rate_limit_per_hour: 40,
        created_at: expect.any(String),
        revoked_at: null,
        usage: {
          current_hour: { start: expect.stringMatching(/T\d{2}:00:00\.000Z$/), requests: expect.any(Number), remaining: expect.any(Number) },
          previous_hour: { start: expect.stringMatching(/T\d{2}:00:00\.000Z$/), requests: expect.any(Number) },
        },
      });
      // The three requests, in this hour (or split with the last one when the hour turned meanwhile).
      const { current_hour: now, previous_hour: before } = active.usage;
      expect([now.requests + before.requests, now.remaining]).toEqual([3, 40 - now.requests]);
      expect(Date.parse(now.start) - Date.parse(before.start)).toBe(3_600_000);
      expect(revoked).toMatchObject({ prefix: revokedToken.slice(0, 12), rate_limit_per_hour: 7, revoked_at: expect.any(String), usage: { current_hour: { requests: 0, remaining: 7 } } });

      const one = await admin.get(`/admin/customers/${tenant.customerId}/tokens/${active.id}`);
      expect(one.status).toBe(200);
      // Reading usage counts nothing.
      expect(one.body).toEqual(active);
    });

    it('counts records ingested per organization per day: created, updated and deleted versions', async () => {
      await clearOfTheHourTurn(15_000); // ingest and read on the same UTC day (midnight is an hour's turn)
      const t = await createTenant(platform.baseUrl);
      expect((await t.api.post(`/organizations/${t.organizationId}/users`, { uid: 'ingest-1' })).status).toBe(201);
      const mobile = new ApiClient(platform.baseUrl, (await t.api.get(`/organizations/${t.organizationId}/users/ingest-1`)).body.mobile.token);
      expect((await mobile.post('/mobile/records', { records: [measurement('a', 70), measurement('b', 71)] })).status).toBe(200);
      // An identical re-post stores nothing; then an update and a deletion.
      expect((await mobile.post('/mobile/records', { records: [measurement('a', 70)] })).status).toBe(200);
      expect((await mobile.post('/mobile/records', { records: [measurement('a', 72), measurement('b', 71, { deleted: true })] })).status).toBe(200);

      const res = await admin.get(`/admin/organizations/${t.organizationId}/ingestion?start_date=${daysAgo(1)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        organization_id: t.organizationId,
        start_date: daysAgo(1),
        end_date: today(),
        total: 4,
        data: [
          { date: daysAgo(1), records: 0, created: 0, updated: 0, deleted: 0 },
          { date: today(), records: 4, created: 2, updated: 1, deleted: 1 },
        ],
      });
      const dflt = await admin.get(`/admin/organizations/${t.organizationId}/ingestion`);
      expect(dflt.body.data).toHaveLength(30);
      expect(dflt.body).toMatchObject({ start_date: daysAgo(29), end_date: today(), total: 4 });
      // Another organization's count is its own.
      expect((await admin.get(`/admin/organizations/${tenant.organizationId}/ingestion`)).body.total).toBe(0);
    });

    it('counts connected sources per type over the organization\'s users', async () => {
      const t = await createTenant(platform.baseUrl);
      for (const uid of ['src-1', 'src-2', 'src-3']) expect((await t.api.post(`/organizations/${t.organizationId}/users`, { uid })).status).toBe(201);
      const empty = await admin.get(`/admin/organizations/${t.organizationId}/sources`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ organization_id: t.organizationId, users: 3, data: [] });
      for (const uid of ['src-1', 'src-2']) {
        const url = (await t.api.get(`/organizations/${t.organizationId}/users/${uid}`)).body.marketplace.url;
        expect((await fetch(`${url}/sources/demo/connect`, { method: 'POST', headers: { accept: 'application/json' } })).status).toBe(200);
      }
      // A deleted user's sources are no longer counted.
      expect((await t.api.delete(`/organizations/${t.organizationId}/users/src-2`)).status).toBe(200);
      const res = await admin.get(`/admin/organizations/${t.organizationId}/sources`);
      expect(res.body).toEqual({ organization_id: t.organizationId, users: 2, data: [{ type: 'demo', connected: 1, by_status: { active: 1, auth_expired: 0, error: 0 } }] });
    });

    it('answers unknown ids with 404 {"errors":[…]}', async () => {
      const paths = [
        '/admin/customers/cus_missing',
        '/admin/customers/cus_missing/organizations',
        '/admin/customers/cus_missing/tokens',
        `/admin/customers/cus_missing/tokens/${'0'.repeat(64)}`,
        `/admin/customers/${tenant.customerId}/tokens/${'0'.repeat(64)}`,
        '/admin/organizations/org_missing',
        '/admin/organizations/org_missing/ingestion',
        '/admin/organizations/org_missing/sources',
      ];
      for (const p of paths) {
        const res = await admin.get(p);
        expect([p, res.status, res.body]).toEqual([p, 404, { errors: [expect.any(String)] }]);
      }
      // Another customer's token is not this customer's.
      const other = await createTenant(platform.baseUrl);
      const foreign = await admin.get(`/admin/customers/${tenant.customerId}/tokens/${sha256(other.token)}`);
      expect(foreign.status).toBe(404);
    });

    it('answers bad query parameters with 400 {"errors":{field:[…]}}', async () => {
      const cases: [string, string][] = [
        ['/admin/customers?limit=0', 'limit'],
        ['/admin/customers?limit=101', 'limit'],
        ['/admin/customers?offset=-1', 'offset'],
        ['/admin/customers?sort=name', 'sort'],
        ['/admin/customers?limit=1&limit=2', 'limit'],
        [`/admin/customers/${tenant.customerId}/tokens?limit=abc`, 'limit'],
        [`/admin/organizations/${tenant.organizationId}/ingestion?start_date=2024-02-30`, 'start_date'],
        [`/admin/organizations/${tenant.organizationId}/ingestion?end_date=yesterday`, 'end_date'],
        [`/admin/organizations/${tenant.organizationId}/ingestion?start_date=${today()}&end_date=${daysAgo(1)}`, 'start_date'],
        [`/admin/organizations/${tenant.organizationId}/ingestion?start_date=${daysAgo(92)}`, 'end_date'],
      ];
      for (const [p, field] of cases) {
        const res = await admin.get(p);
        expect([p, res.status, Object.keys(res.body.errors ?? {})]).toEqual([p, 400, [field]]);
      }
      // 92 days is the most one read covers.
      expect((await admin.get(`/admin/organizations/${tenant.organizationId}/ingestion?start_date=${daysAgo(91)}`)).body.data).toHaveLength(92);
    });

    it('refuses developer tokens and missing tokens with 401 {"message"}', async () => {
      const paths = [
        '/admin/customers',
        `/admin/customers/${tenant.customerId}`,
        `/admin/customers/${tenant.customerId}/organizations`,
        `/admin/customers/${tenant.customerId}/tokens`,
        `/admin/customers/${tenant.customerId}/tokens/${sha256(tenant.token)}`,
        `/admin/organizations/${tenant.organizationId}`,
        `/admin/organizations/${tenant.organizationId}/ingestion`,
        `/admin/organizations/${tenant.organizationId}/sources`,
      ];
      for (const p of paths) {
        for (const client of [tenant.api, new ApiClient(platform.baseUrl)]) {
          const res = await client.get(p);
          expect([p, res.status, res.body]).toEqual([p, 401, { message: expect.any(String) }]);
        }
      }
    });
  });
}

jest.setTimeout(byRuntime({ embedded: 60_000, distributed: 120_000 }));
operatorReadsSuite(testRuntime());
