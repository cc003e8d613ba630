/**
 * The data lifecycle (docs/data-lifecycle.md) on a whole platform, on both runtimes: a deleted user's data
 * exported on special request from every service that holds some (users, records, rules,
 * notifications, sources), fetched through the signed link (410 once past its lifetime); an
 * erasure after which no API, replay or export finds anything of the user, idempotent; retention
 * that ends on a clock moved seven years forward; the audit log of all of it; and the bad inputs.
 */
import { createHash } from 'node:crypto';
import { manualClock } from '@wellstream/clock';
import { ApiClient, byRuntime, connectSse, createTenant, eventually, Tenant, TEST_ADMIN_TOKEN, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { OuraSimulator } from '../services/sources/src/providers/oura/simulator/oura-simulator';

const DAY = 24 * 3600 * 1000;
const LINK_TTL_S = 60;
const now = () => new Date().toISOString().slice(0, 19) + 'Z';

function dataLifecycleSuite(mode: 'embedded' | 'distributed'): void {
  // Starts at the real time: the sweeps read it, everything else keeps the system clock.
  const clock = manualClock(Date.now());
  let sim: OuraSimulator;
  let platform: TestPlatform;
  let tenant: Tenant;
  let admin: ApiClient;

  beforeAll(async () => {
    sim = new OuraSimulator();
    await sim.start();
    platform = await startTestPlatform({
      mode,
      label: 'lifecycle',
      clock,
      env: {
        ...sim.env(),
        WELLSTREAM_RULES_ENABLED: 'true',
        WELLSTREAM_SOURCE_BACKFILL_DAYS: '2',
        WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100',
        WELLSTREAM_RETENTION_SWEEP_INTERVAL_MS: '1000',
        WELLSTREAM_EXPORT_LINK_TTL_S: String(LINK_TTL_S),
      },
    });
    tenant = await createTenant(platform.baseUrl);
    admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    // A push target nobody answers: batches form and keep their records (attempts record code 0).
    expect((await tenant.api.put(`/organizations/${tenant.organizationId}/notification_target`, { url: 'http://127.0.0.1:9/push' })).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await sim?.stop();
  });

  const org = () => tenant.organizationId;
  const userPath = (uid: string) => `/organizations/${org()}/users/${uid}`;

  /** A user with data in every service: records (one in two versions), a rule, push items, an Oura connection. */
  async function userWithData(uid: string, withOura: boolean) {
    const created = await tenant.api.post(`/organizations/${org()}/users`, { uid, location: { timezone: 'Europe/Berlin', country_code: 'DE' } });
    expect(created.status).toBe(201);
    const mobile = (await tenant.api.get(userPath(uid))).body.mobile.token as string;
    const weight = (value: number, logId: string) => ({ type: 'measurement', source: { type: 'withings' }, log_id: logId, start_time: now(), end_time: now(), metrics: [{ type: 'body_weight', unit: 'kg', value, origin: 'device' }] });
    for (const body of [{ records: [weight(71.4, `${uid}-w1`), weight(70.1, `${uid}-w2`)] }, { records: [weight(71.0, `${uid}-w1`)] }]) {
      const res = await fetch(`${platform.baseUrl}/mobile/records?token=${mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
    }
    const rule = await eventually(async () => {
      const r = await tenant.api.post(`${userPath(uid)}/rules`, { type: 'user/missing_data', window: 'P3D', message: 'Please weigh yourself', metric: { type: 'body_weight' }, threshold: { value: 1, comparator: 'less_than' } });
      return r.status === 201 && r;
    });
    if (withOura) {
      const who = sim.createUser({ days: 3, now: new Date() });
      const start = await fetch(`${created.body.marketplace.url}/sources/oura/connect`, { method: 'POST', redirect: 'manual' });
      expect(start.status).toBe(303);
      const back = await fetch(sim.authorize(start.headers.get('location')!, who, 'allow'), { redirect: 'manual' });
      expect(back.status).toBe(303);
      await eventually(async () => ((await tenant.api.get(userPath(uid))).body.sources as { type: string; backfill?: { state: string } }[]).some((s) => s.type === 'oura' && s.backfill?.state === 'done'), 60_000, 200);
    }
    // The push queue formed a batch carrying the user's records.
    await eventually(async () => {
      const list = await tenant.api.get(`/organizations/${org()}/notifications`);
      return list.status === 200 && list.body.data.length > 0;
    }, 20_000);
    return { id: created.body.id as string, uid, mobile, ruleId: rule.body.id as string };
  }

  async function exportOf(uid: string) {
    const started = await admin.post(`/admin${userPath(uid)}/exports`, {});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'running', download_url: null });
    return eventually(async () => {
      const job = await admin.get(`/admin${userPath(uid)}/exports/${started.body.id}`);
      expect(job.status).toBe(200);
      return job.body.status === 'ready' && job.body;
    }, 60_000, 200);
  }

  async function download(url: string) {
    const res = await fetch(url);
    const text = await res.text();
    return { status: res.status, text, type: res.headers.get('content-type') };
  }

  /** Events of the user a replay of the customer's 30 days serves (the first poke comes once the history is sent). */
  async function replayedEventsOf(userId: string) {
    const replay = await connectSse(`${platform.baseUrl}/replay?token=${tenant.token}`);
    try {
      expect(replay.status).toBe(200);
      await replay.waitFor((e) => e.event === 'poke', 20_000);
      return replay.events.filter((e) => e.event !== 'poke' && JSON.stringify(e.json()).includes(userId));
    } finally {
      replay.close();
    }
  }

  let deleted: Awaited<ReturnType<typeof userWithData>>;
  let linkOfDeleted: string;
  let exportIdOfDeleted: string;

  it("exports a deleted user's data from every service as NDJSON with a manifest, audited with its size", async () => {
    deleted = await userWithData(`deleted-${Date.now().toString(36)}`, true);
    expect((await tenant.api.delete(userPath(deleted.uid))).status).toBe(200);
    expect((await tenant.api.get(userPath(deleted.uid))).status).toBe(404);

    const job = await exportOf(deleted.uid);
    expect(job).toMatchObject({ user_status: 'deleted', progress: { services_done: 5, services_total: 5 } });
    // Deletion ended the user's rules and Oura connection (their data stays: the connection's
    // history, the records it brought); withings' two records plus Oura's backfill.
    expect(job.counts).toMatchObject({ user: 1, disconnection: 1 });
    expect(job.counts.rule).toBeUndefined();
    expect(job.counts.record).toBeGreaterThan(2);
    expect(job.counts.push_item).toBeGreaterThanOrEqual(2);
    expect(job.download_url).toMatch(/\/v2\/exports\/exp_[0-9a-f]+\/download\?expires=\d+&signature=[0-9a-f]{64}$/);
    linkOfDeleted = job.download_url;
    exportIdOfDeleted = job.id;

    const file = await download(job.download_url);
    expect(file.status).toBe(200);
    expect(file.type).toMatch(/^application\/x-ndjson/);
    const lines = file.text.trimEnd().split('\n');
    const items = lines.map((l) => JSON.parse(l) as { type: string; service: string; data: any });
    const manifest = items.pop()!;
    expect(manifest.type).toBe('manifest');
    const body = lines.slice(0, -1).map((l) => `${l}\n`).join('');
    expect(manifest.data).toMatchObject({ export_id: job.id, uid: deleted.uid, user_id: deleted.id, size_bytes: Buffer.byteLength(body), sha256: createHash('sha256').update(body).digest('hex'), counts: job.counts });
    expect(new Set(items.map((i) => i.service))).toEqual(new Set(['users', 'records', 'notifications', 'sources']));
    // Every holder answered, rules with nothing (a deleted user's rules end with the deletion).
    expect(manifest.data.services).toEqual({ users: { items: 2 }, records: { items: job.counts.record + job.counts.record_version }, rules: { items: 0 }, notifications: { items: job.counts.push_item }, sources: { items: 1 } });
    const record = items.find((i) => i.type === 'record' && i.data.log_id === `${deleted.uid}-w1`)!;
    expect(record.data).toMatchObject({ metrics: [{ value: 71 }] });
    // Its first version, replaced by the second post.
    const earlier = items.find((i) => i.type === 'record_version' && i.data.id === record.data.id)!;
    expect(earlier.data).toMatchObject({ metrics: [{ value: 71.4 }], superseded_at: expect.any(String) });
    expect(earlier.data.checksum).not.toBe(record.data.checksum);
    expect(items.find((i) => i.type === 'user')!.data).toMatchObject({ uid: deleted.uid, status: 'deleted', country_code: 'DE' });
    expect(items.find((i) => i.type === 'disconnection')!.data).toMatchObject({ user_id: deleted.id });
    expect(items.find((i) => i.type === 'record' && i.data.source.type === 'oura')).toBeTruthy();
    expect(items.find((i) => i.type === 'push_item')!.data.record.user).toMatchObject({ user_id: deleted.id });
    // Never access: no token of any kind in the file.
    expect(file.text).not.toContain(deleted.mobile);
    expect(file.text).not.toMatch(/"tokens"|marketplace_token"/);

    const audit = await eventually(async () => {
      const page = await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&action=export.completed`);
      expect(page.status).toBe(200);
      return page.body.data.find((e: any) => e.details.export_id === job.id);
    });
    expect(audit).toMatchObject({ actor: 'operator', uid: deleted.uid, user_id: deleted.id, customer_id: tenant.customerId, details: { size_bytes: manifest.data.size_bytes } });
    const requested = await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&action=export.requested&limit=100`);
    expect(requested.body.data.some((e: any) => e.details.export_id === job.id)).toBe(true);
  });

  it('refuses an altered link (401) and, past its lifetime, the link itself (410)', async () => {
    const altered = linkOfDeleted.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    expect(await download(altered)).toMatchObject({ status: 401 });
    expect(JSON.parse((await download(altered)).text)).toEqual({ message: expect.any(String) });
    clock.advance((LINK_TTL_S + 1) * 1000);
    const expired = await download(linkOfDeleted);
    expect(expired.status).toBe(410);
    expect(JSON.parse(expired.text)).toEqual({ errors: [expect.stringMatching(/expired/)] });
  });

  it('answers unknown organizations, uids and exports 404, and a developer token 401, on every lifecycle endpoint', async () => {
    for (const path of [`/admin/organizations/org_unknown/users/${deleted.uid}/exports`, `/admin${userPath('nobody-here')}/exports`, `/admin${userPath('nobody-here')}/erasure`]) {
      const res = await admin.post(path, {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [expect.any(String)] });
    }
    expect((await admin.get(`/admin${userPath(deleted.uid)}/exports/exp_nope`)).status).toBe(404);
    expect((await admin.get('/admin/audit_log?action=not-an-action')).status).toBe(400);
    for (const [method, path] of [
      ['POST', `/admin${userPath(deleted.uid)}/exports`],
      ['GET', `/admin${userPath(deleted.uid)}/exports/exp_nope`],
      ['POST', `/admin${userPath(deleted.uid)}/erasure`],
      ['GET', '/admin/audit_log'],
    ]) {
      const res = await tenant.api.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
  });

  it('erases a user everywhere: no read, replay or export finds anything afterwards, and a second erasure has nothing left to do', async () => {
    const user = await userWithData(`erased-${Date.now().toString(36)}`, false);
    await eventually(async () => (await replayedEventsOf(user.id)).length > 0, 20_000);
    // An active user's export carries the rules too.
    expect((await exportOf(user.uid)).counts).toMatchObject({ user: 1, record: 2, rule: 1 });
    const erased = await admin.post(`/admin${userPath(user.uid)}/erasure`, {});
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ uid: user.uid, status: 'erased', already_erased: false });
    // Every service that holds user data removed its share and said so.
    await eventually(async () => {
      const page = await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&action=erasure.completed&limit=100`);
      const services = new Set(page.body.data.filter((e: any) => e.user_id === user.id).map((e: any) => e.service));
      return ['users', 'records', 'rules', 'notifications', 'sources'].every((s) => services.has(s));
    }, 60_000, 250);
    // The event log's copies went too (embedded: the rows; Kafka: a tombstone per key).
    const byUsers = (await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&action=erasure.completed&limit=100`)).body.data.find((e: any) => e.user_id === user.id && e.service === 'users');
    expect(byUsers.details.removed.event_log_messages).toBeGreaterThan(0);

    expect((await tenant.api.get(userPath(user.uid))).status).toBe(404);
    expect((await tenant.api.get(`${userPath(user.uid)}/measurements`)).status).toBe(404);
    expect((await tenant.api.get(`${userPath(user.uid)}/rules`)).status).toBe(404);
    const users = await tenant.api.get(`/organizations/${org()}/users?limit=100`);
    expect(JSON.stringify(users.body)).not.toContain(user.id);
    const mobilePost = await fetch(`${platform.baseUrl}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"records":[]}' });
    expect(mobilePost.status).toBe(401);
    // Push: no batch carries the user's records any more.
    const batches = await tenant.api.get(`/organizations/${org()}/notifications?limit=100`);
    for (const b of batches.body.data) {
      const detail = await tenant.api.get(`/organizations/${org()}/notifications/${b.id}`);
      expect(JSON.stringify(detail.body)).not.toContain(user.id);
    }
    expect(await replayedEventsOf(user.id)).toEqual([]);
    expect((await admin.post(`/admin${userPath(user.uid)}/exports`, {})).status).toBe(404);
    if (mode === 'embedded') {
      // The embedded log's rows themselves are gone, in every topic that carried the user.
      for (const topic of ['events', 'users', 'source-connections', 'source-records']) {
        const seen: string[] = [];
        await new Promise<void>((resolve, reject) => {
          platform.eventLog
            .tail({ topic, handle: async (m) => void (m.value.includes(user.id) && seen.push(m.value)), onCaughtUp: resolve })
            .then((sub) => setTimeout(() => void sub.stop(), 100), reject);
        });
        expect({ topic, seen }).toEqual({ topic, seen: [] });
      }
    }
    const again = await admin.post(`/admin${userPath(user.uid)}/erasure`, {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ already_erased: true, erased_at: erased.body.erased_at });
    // The deleted user's export goes with the user: a fresh link of it finds nothing once erased.
    const fresh = await admin.get(`/admin${userPath(deleted.uid)}/exports/${exportIdOfDeleted}`);
    expect(fresh.status).toBe(200);
    expect((await admin.post(`/admin${userPath(deleted.uid)}/erasure`, {})).status).toBe(200);
    await eventually(async () => (await download(fresh.body.download_url)).status === 404, 30_000, 250);
    expect((await admin.get(`/admin${userPath(deleted.uid)}/exports/${exportIdOfDeleted}`)).status).toBe(404);
    const audit = await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&action=export.requested&limit=100`);
    expect(audit.body.data.filter((e: any) => e.user_id === deleted.id).every((e: any) => e.uid === null)).toBe(true);
  });

  it("ends retention: seven years after a deletion the sweeper erases the user's data in every service", async () => {
    const user = await userWithData(`retained-${Date.now().toString(36)}`, false);
    expect((await tenant.api.delete(userPath(user.uid))).status).toBe(200);
    // Six years on, still kept: an export still finds everything.
    clock.advance(6 * 365 * DAY);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await exportOf(user.uid)).counts).toMatchObject({ user: 1, record: 2 });
    // Past 2,557 days: swept by every service, audited as the platform's own work.
    clock.advance(2557 * DAY - 6 * 365 * DAY + DAY);
    const swept = await eventually(async () => {
      const page = await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&action=retention.swept&limit=100`);
      const mine = page.body.data.filter((e: any) => e.user_id === user.id);
      return ['users', 'records', 'rules', 'notifications', 'sources'].every((s) => mine.some((e: any) => e.service === s)) && mine;
    }, 60_000, 250);
    expect(swept.every((e: any) => e.actor === 'system:retention')).toBe(true);
    expect(swept.find((e: any) => e.service === 'records').details.removed).toMatchObject({ records: 2 });
    expect(swept.find((e: any) => e.service === 'records').details.removed.record_keys).toBeGreaterThanOrEqual(1);
    expect(swept.find((e: any) => e.service === 'users').details.removed).toMatchObject({ exports: 1 });
    expect((await admin.post(`/admin${userPath(user.uid)}/exports`, {})).status).toBe(404);
    expect((await admin.post(`/admin${userPath(user.uid)}/erasure`, {})).body).toMatchObject({ already_erased: true });
  });

  it('pages and filters the audit log', async () => {
    const all = await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&limit=2&offset=1`);
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ offset: 1, limit: 2, customer_id: tenant.customerId });
    expect(all.body.data).toHaveLength(2);
    expect(all.body.meta.total).toBeGreaterThan(15);
    const other = await admin.get('/admin/audit_log?customer_id=cus_nobody');
    expect(other.body).toMatchObject({ data: [], meta: { total: 0 } });
  });
}

jest.setTimeout(byRuntime({ embedded: 180_000, distributed: 240_000 }));

describe(`data lifecycle (${testRuntime()})`, () => dataLifecycleSuite(testRuntime()));
