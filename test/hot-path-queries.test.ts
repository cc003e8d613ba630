/**
 * The hot-path query guard: the whole platform runs with every service's store wrapped in a
 * QueryRecorder, each hot path is driven through the gateway, and every query it issued must be
 * served by an index, judged three ways (libs/store/src/query-guard.ts):
 * - its shape (equality fields, sort, ranges) matches one of the collection's declared indexes,
 *   as a MongoDB-API server with indexes plans it (index-match.ts);
 * - SQLite's own planner (EXPLAIN QUERY PLAN on the embedded store this test runs on, whose
 *   indexes are the declared ones) does not scan the table;
 * - FerretDB v1 serves it by primary-key lookups or a partition (it uses no other index).
 * WELLSTREAM_QUERY_GUARD_LIST=1 prints what each path issues, with SQLite's plan.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryRecorder } from '@wellstream/store';
import { ApiClient, connectSse, createTenant, eventually, SseConnection, TEST_ADMIN_TOKEN, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

/**
 * Queries still scanning on FerretDB, each with why it is tolerated for now. Anything else that
 * scans fails the test.
 */
const KNOWN_SCANS: Record<string, string> = {
  'notifications notification_batches.find {state: eq, next_attempt_ms: range, lease_until_ms: range} sort next_attempt_ms,seq':
    'the due-delivery poll reads the batch history (kept for the customer); it needs a due queue of its own',
  'notifications notification_batches.count {organization_id: eq, state: eq, attempt_count: eq, seq: range}': 'same collection as the due-delivery poll',
  'rules rules.find {user_id: eq} sort created_at,_id': 'rules grow with users and their rules, not with stored data',
  'rules rules.find {user_id: eq, metric.type: eq}': 'rules grow with users and their rules, not with stored data',
  'rules rules.find {armed_at: range} sort _id': 'rules grow with users and their rules, not with stored data',
  'rules data_points.deleteMany {time: range}': 'the retention sweep runs once per evaluation interval, not per record',
  // Timers that may fire during any path: FHIR exports' resume and expiry sweeps.
  'records fhir_export_jobs.find {status: eq}': 'export jobs are a handful per organization, looked at on a timer, not per record',
  'records fhir_export_jobs.find {status: in, completed_at: range}': 'export jobs are a handful per organization, looked at on a timer, not per record',
};

/** Queries no declared index serves, each with why it is tolerated for now. */
const KNOWN_UNINDEXED: Record<string, string> = {
  'rules rules.find {armed_at: range} sort _id':
    'the scheduled evaluation pages through armed rules in _id order (rules grow with users and their rules, not with stored data)',
};

const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hot-path queries are served by a declared index (its shape, SQLite\'s plan) and by FerretDB v1', () => {
  const recorders = new Map<string, QueryRecorder>();
  let platform: TestPlatform;
  let tenant: Tenant;
  let mobile: ApiClient;
  let stream: SseConnection;
  let streamId: string;
  let receiver: http.Server;
  let pushed = 0;
  const uid = `guard-${Date.now().toString(36)}`;

  /**
   * Everything issued since the last call, per service, and which of it a backend would scan.
   * FerretDB v1 is judged on the paths that carry data (ingestion, record reads, projections);
   * on the others (customer and operator reads, exports) it scans by design (docs/decisions.md).
   */
  async function judge(path: string, { ferretdb = true } = {}): Promise<string[]> {
    const unserved: string[] = [];
    const listing: string[] = [`${path}:`];
    for (const [service, rec] of recorders) {
      for (const q of rec.judge()) {
        const plan = await rec.explain(q.issued);
        const name = `${service} ${q.query}`;
        listing.push(`  ${name}${q.mongodb ? '  [no index]' : ''}${q.ferretdb ? '  [FerretDB scans]' : ''}${plan ? `  (SQLite: ${plan.plan})` : ''}`);
        if (KNOWN_UNINDEXED[name]) continue;
        if (q.mongodb) unserved.push(`${name}: ${q.mongodb}`);
        if (plan?.scan) unserved.push(`${name}: SQLite scans: ${plan.plan}`);
        if (plan?.sortsAll) unserved.push(`${name}: SQLite sorts every match for a page: ${plan.plan}`);
        if (ferretdb && q.ferretdb && !KNOWN_SCANS[name]) unserved.push(`${name}: FerretDB: ${q.ferretdb}`);
      }
    }
    if (process.env.WELLSTREAM_QUERY_GUARD_LIST) process.stdout.write(`${listing.join('\n')}\n`);
    expect(listing.length).toBeGreaterThan(1);
    return unserved;
  }

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        pushed++;
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    platform = await startTestPlatform({
      env: { WELLSTREAM_RULES_ENABLED: 'true', WELLSTREAM_RULES_EVALUATE_INTERVAL_MS: '300', WELLSTREAM_DEMO_BACKFILL_DAYS: '0' },
      observeStore: (service, store) => {
        const rec = new QueryRecorder(store);
        recorders.set(service, rec);
        return rec;
      },
    });
    tenant = await createTenant(platform.baseUrl);
    const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    expect((await admin.patch(`/admin/organizations/${tenant.organizationId}/settings`, { rules_enabled: true })).status).toBe(200);
    const users = `/organizations/${tenant.organizationId}/users`;
    expect((await tenant.api.post(users, { uid, location: { timezone: 'Europe/Berlin', country_code: 'DE' } })).status).toBe(201);
    const got = await tenant.api.get(`${users}/${uid}`);
    mobile = new ApiClient(platform.baseUrl, got.body.mobile.token);
    await eventually(async () => (await mobile.post('/mobile/records', {})).status !== 401, 15_000);
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    expect((await tenant.api.put(`/organizations/${tenant.organizationId}/notification_target`, { url: target, secret: 'guard-secret-0123456789' })).status).toBe(200);
    const rule = await tenant.api.post(`${users}/${uid}/rules`, {
      type: 'user/missing_data',
      window: 'PT1H',
      message: 'weigh yourself',
      metric: { type: 'body_weight' },
      threshold: { value: 1, comparator: 'less_than' },
    });
    expect(rule.status).toBe(201);
    const s = await tenant.api.post('/streams', { name: 'guard' });
    streamId = s.body.id;
    stream = await connectSse(`${platform.baseUrl}/streams/${streamId}/connect?token=${tenant.token}`);
    await eventually(async () => (await tenant.api.get(`/streams/${streamId}`)).body.members === 1);
  }, 60_000);

  afterAll(async () => {
    stream?.close();
    await platform?.stop();
    await new Promise((r) => receiver?.close(r));
  });

  const weight = (i: number) => {
    const at = new Date(Date.now() - i * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return { type: 'measurement', source: { type: 'apple_health' }, log_id: `w-${i}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + i / 10, origin: 'device' }] };
  };

  it('ingestion, and what follows it: outbox, streams, push batching, rules evaluation', async () => {
    for (const r of recorders.values()) r.take();
    for (let i = 0; i < 5; i++) expect((await mobile.post('/mobile/records', { records: [weight(i)] })).status).toBe(200);
    expect((await mobile.post('/mobile/records', { records: Array.from({ length: 20 }, (_, i) => weight(100 + i)) })).status).toBe(200);
    // Again, unchanged: the identity check alone.
    expect((await mobile.post('/mobile/records', { records: [weight(0)] })).status).toBe(200);
    await stream.waitFor((e) => e.event === 'data' && e.json().log_id === 'w-119', 20_000);
    await eventually(async () => pushed > 0, 20_000);
    await sleep(800); // scheduled rule evaluations
    expect(await judge('ingestion')).toEqual([]);
    // What the guard let scan because it is a backlog did drain.
    await eventually(async () => {
      for (const rec of recorders.values()) if (Object.values(await rec.backlogs()).some((n) => n > 0)) return false;
      return true;
    }, 10_000);
  }, 60_000);

  it('REST record reads', async () => {
    const base = `/organizations/${tenant.organizationId}/users/${uid}`;
    for (const kind of ['measurements', 'summaries', 'sleep']) {
      const res = await tenant.api.get(`${base}/${kind}?start_date=${isoDay(-6)}&end_date=${isoDay(0)}`);
      expect(res.status).toBe(200);
      // merged=true: the same read, plus the organization's source priority by its id.
      expect((await tenant.api.get(`${base}/${kind}?start_date=${isoDay(-6)}&end_date=${isoDay(0)}&merged=true`)).status).toBe(200);
    }
    // Data availability: stats and connections by primary key.
    expect((await tenant.api.get(`${base}/availability`)).status).toBe(200);
    expect((await tenant.api.put(`/organizations/${tenant.organizationId}/source_priority`, { metrics: { steps: ['apple_health'] } })).status).toBe(200);
    expect(await judge('REST reads')).toEqual([]);
  });

  it('projections: a user update reaches every service', async () => {
    const path = `/organizations/${tenant.organizationId}/users/${uid}`;
    expect((await tenant.api.put(path, { location: { timezone: 'Europe/Paris', country_code: 'FR' } })).status).toBe(200);
    for (const r of recorders.values()) r.take(); // the users API call itself is not a projection
    await sleep(1000);
    expect(await judge('projections')).toEqual([]);
  });
  it('stream and replay reads: the stream, its members, a second client, the 30-day replay', async () => {
    for (const r of recorders.values()) r.take();
    expect((await tenant.api.get(`/streams/${streamId}`)).status).toBe(200);
    expect((await tenant.api.get('/streams')).status).toBe(200);
    const second = await connectSse(`${platform.baseUrl}/streams/${streamId}/connect?token=${tenant.token}`);
    const replay = await connectSse(`${platform.baseUrl}/replay?token=${tenant.token}&event_types=data&date=${isoDay(0)}`);
    try {
      await replay.waitFor((e) => e.event === 'data' && e.json().log_id === 'w-119', 20_000);
      await eventually(async () => (await tenant.api.get(`/streams/${streamId}`)).body.members === 2);
    } finally {
      replay.close();
      second.close();
    }
    expect(await judge('stream and replay reads', { ferretdb: false })).toEqual([]);
  }, 60_000);

  it('push: the notification list, a batch and its attempts', async () => {
    for (const r of recorders.values()) r.take();
    const list = await tenant.api.get(`/organizations/${tenant.organizationId}/notifications`);
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect((await tenant.api.get(`/organizations/${tenant.organizationId}/notifications/${list.body.data[0].id}`)).status).toBe(200);
    expect(await judge('push reads', { ferretdb: false })).toEqual([]);
  });

  it("sources: the marketplace's demo connect, its sync jobs and generated records", async () => {
    const got = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`);
    for (const r of recorders.values()) r.take();
    const res = await fetch(`${got.body.marketplace.url}/sources/demo/connect`, { method: 'POST', headers: { accept: 'application/json' } });
    expect(res.status).toBeLessThan(400);
    // The demo source writes the user's local today first; in Paris that is UTC's tomorrow from
    // 23:00 UTC (the test failed then), so the window reaches one day past UTC's today.
    await eventually(async () => (await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}/summaries?start_date=${isoDay(0)}&end_date=${isoDay(1)}`)).body.data.length > 0, 20_000);
    await sleep(1000); // the sync scheduler's polls
    expect(await judge('sources', { ferretdb: false })).toEqual([]);
  }, 60_000);

  it("exports: a user's data export and a FHIR bulk export", async () => {
    const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    for (const r of recorders.values()) r.take();
    const userPath = `/admin/organizations/${tenant.organizationId}/users/${uid}`;
    const started = await admin.post(`${userPath}/exports`, {});
    expect(started.status).toBe(202);
    await eventually(async () => (await admin.get(`${userPath}/exports/${started.body.id}`)).body.status === 'ready', 30_000, 200);
    const kick = await tenant.api.get(`/organizations/${tenant.organizationId}/fhir/Patient/$export`, { headers: { prefer: 'respond-async' } });
    expect(kick.status).toBe(202);
    const status = kick.headers.get('content-location')!;
    await eventually(async () => (await tenant.api.get(status.slice(status.indexOf('/v2') + 3))).status === 200, 30_000, 200);
    expect(await judge('exports', { ferretdb: false })).toEqual([]);
  }, 60_000);
});
