/**
 * Idempotent writes on both runtimes: a POST retried with one `Idempotency-Key` has one effect and
 * gets the first answer each time (users, mobile records and their stream events, streams); the
 * same key with another body is a 422, a bad key a 400; two concurrent duplicates have one effect;
 * a key belongs to its customer; a deleted or erased user's stored answers are gone. Distributed,
 * a second users replica answers a retry the first replica stored.
 */
import { composeUsers, loadUsersConfig } from '@wellstream/users-service';
import type { RunningService } from '@wellstream/runtime';
import { ApiClient, connectSse, createTenant, eventually, gatewayHeaders, SseConnection, Tenant, TEST_ADMIN_TOKEN, TEST_GATEWAY_KEY, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
const unique = (p: string) => `${p}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

function idempotentWritesSuite(mode: 'embedded' | 'distributed'): void {
  let platform: TestPlatform;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ApiClient;
  const open: SseConnection[] = [];

  beforeAll(async () => {
    // A known gateway key, so that a replica started beside the platform takes its callers.
    platform = await startTestPlatform({ mode, label: 'idempotent-writes', env: { WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY } });
    tenant = await createTenant(platform.baseUrl);
    other = await createTenant(platform.baseUrl, { name: 'Other customer' });
    admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
  }, 180_000);

  const replicas: RunningService[] = [];
  afterAll(async () => {
    for (const c of open) c.close();
    for (const r of replicas) await r.stop();
    await platform?.stop();
  });

  const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
  const usersPath = (t: Tenant) => `/organizations/${t.organizationId}/users`;
  const createUser = (t: Tenant, uid: string, key?: string) => t.api.request('POST', usersPath(t), { uid }, key === undefined ? {} : withKey(key));
  const countUsers = async (t: Tenant, uid: string) => {
    const list = await t.api.get(`${usersPath(t)}?limit=100`);
    return (list.body.data as { uid: string }[]).filter((u) => u.uid === uid).length;
  };
  const mobileToken = async (uid: string) => (await tenant.api.get(`${usersPath(tenant)}/${uid}`)).body.mobile.token as string;
  const postRecords = (token: string, body: unknown, key: string) =>
    new ApiClient(platform.baseUrl).request('POST', `/mobile/records?token=${encodeURIComponent(token)}`, body, withKey(key));

  it('a user created 10 times with one key is stored once, and every answer is the first', async () => {
    const uid = unique('once');
    const key = unique('key');
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await createUser(tenant, uid, key));
    expect(answers[0].status).toBe(201);
    for (const a of answers) {
      expect(a.status).toBe(201);
      expect(a.text).toBe(answers[0].text);
      expect(a.headers.get('content-type')).toBe(answers[0].headers.get('content-type'));
    }
    expect(answers[0].headers.get('idempotent-replayed')).toBeNull();
    expect(answers[9].headers.get('idempotent-replayed')).toBe('true');
    expect(await countUsers(tenant, uid)).toBe(1);
    // Without the key the same request is a new one: the uid is taken.
    expect((await createUser(tenant, uid)).status).toBe(422);
  });

  it('mobile records retried 10 times with one key are stored once, with one event each on the stream', async () => {
    const uid = unique('mob');
    expect((await createUser(tenant, uid)).status).toBe(201);
    const token = await mobileToken(uid);
    const stream = await tenant.api.post('/streams', { name: unique('s') });
    expect(stream.status).toBe(201);
    const client = await connectSse(`${platform.baseUrl}/streams/${stream.body.id}/connect?token=${tenant.token}`);
    open.push(client);
    expect(client.status).toBe(200);
    const t = Date.now() - 3600_000;
    const records = [0, 1, 2].map((i) => ({
      type: 'measurement',
      source: { type: 'withings' },
      log_id: unique(`m${i}`),
      start_time: iso(t + i * 60_000),
      end_time: iso(t + i * 60_000),
      metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + i, origin: 'device' }],
    }));
    const key = unique('rec');
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await postRecords(token, { records }, key));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).toBe(answers[0].text);
    }
    // The records were not ingested again (identical content would change nothing anyway): answered from the store.
    expect(answers.slice(1).every((a) => a.headers.get('idempotent-replayed') === 'true')).toBe(true);
    const list = await tenant.api.get(`${usersPath(tenant)}/${uid}/measurements?start_date=${iso(t - 86_400_000).slice(0, 10)}&end_date=${iso(t + 86_400_000).slice(0, 10)}`);
    expect(list.status).toBe(200);
    expect((list.body.data as unknown[]).length).toBe(3);
    for (const r of records) await client.waitFor((e) => e.data.includes(r.log_id), 20_000);
    // A moment for any second copy to arrive, then one event per record.
    await new Promise((r) => setTimeout(r, 1500));
    for (const r of records) expect(client.events.filter((e) => e.event !== 'poke' && e.data.includes(r.log_id))).toHaveLength(1);
  });

  it('a stream created 10 times in a row with one key is stored once, and every answer is the first', async () => {
    const name = unique('stream-once');
    const key = unique('key');
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await tenant.api.request('POST', '/streams', { name, resource_filter: ['sleep'] }, withKey(key)));
    for (const a of answers) {
      expect(a.status).toBe(201);
      expect(a.text).toBe(answers[0].text);
    }
    expect(answers[0].headers.get('idempotent-replayed')).toBeNull();
    expect(answers.slice(1).every((a) => a.headers.get('idempotent-replayed') === 'true')).toBe(true);
    const list = await tenant.api.get('/streams?limit=100');
    expect((list.body.streams as { id: string; name: string }[]).filter((st) => st.name === name).map((st) => st.id)).toEqual([answers[0].body.id]);
    // Without the key the same request is a new one: the name is taken.
    expect((await tenant.api.post('/streams', { name, resource_filter: ['sleep'] })).status).toBe(422);
    expect((await tenant.api.delete(`/streams/${answers[0].body.id}`)).status).toBe(200);
  });

  it("a user's export requested 10 times in a row with one key is one export, audited once", async () => {
    const uid = unique('exp');
    expect((await createUser(tenant, uid)).status).toBe(201);
    const exportsPath = `/admin${usersPath(tenant)}/${uid}/exports`;
    const key = unique('key');
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await admin.request('POST', exportsPath, undefined, withKey(key)));
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.text).toBe(answers[0].text);
    }
    expect(answers.slice(1).every((a) => a.headers.get('idempotent-replayed') === 'true')).toBe(true);
    const exportId = answers[0].body.id as string;
    expect((await admin.get(`${exportsPath}/${exportId}`)).status).toBe(200);
    const requested = async () => {
      const audit = await admin.get(`/admin/audit_log?customer_id=${tenant.customerId}&action=export.requested&limit=100`);
      expect(audit.status).toBe(200);
      return (audit.body.data as { uid: string; details: { export_id: string } }[]).filter((e) => e.uid === uid).map((e) => e.details.export_id);
    };
    // Without the key a request is a new export, with an id and an audit entry of its own. The audit
    // log is written from events (distributed: later than the answer), so once this last request's
    // entry is there, the ten before it have had theirs written too: one, the first's.
    const another = await admin.request('POST', exportsPath, undefined);
    expect(another.status).toBe(202);
    expect(another.body.id).not.toBe(exportId);
    const audited = await eventually(async () => {
      const ids = await requested();
      return ids.includes(another.body.id) ? ids : undefined;
    }, 20_000);
    expect(audited.sort()).toEqual([exportId, another.body.id].sort());
  });

  it('the same key with another body is a 422; a key empty or too long is a 400', async () => {
    const key = unique('k');
    expect((await createUser(tenant, unique('a'), key)).status).toBe(201);
    const reused = await createUser(tenant, unique('b'), key);
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ errors: { 'Idempotency-Key': ['was used with another request body'] } });
    for (const bad of ['', ' ', 'k'.repeat(256)]) {
      const res = await createUser(tenant, unique('c'), bad);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: { 'Idempotency-Key': ['must be 1 to 255 characters'] } });
    }
    expect((await createUser(tenant, unique('d'), 'k'.repeat(255))).status).toBe(201);
  });

  it('two concurrent identical requests have one effect and the same answer', async () => {
    const uid = unique('race');
    const key = unique('key');
    const [a, b] = await Promise.all([createUser(tenant, uid, key), createUser(tenant, uid, key)]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.text).toBe(a.text);
    expect(await countUsers(tenant, uid)).toBe(1);
    const [s1, s2] = await Promise.all([0, 1].map(() => tenant.api.request('POST', '/streams', { name: `race-${uid}` }, withKey(key))));
    expect([s1.status, s2.status]).toEqual([201, 201]);
    expect(s2.text).toBe(s1.text);
  });

  it("a key is the customer's own: another customer's same key and body is independent", async () => {
    const uid = unique('mine');
    const key = unique('shared');
    const mine = await createUser(tenant, uid, key);
    const theirs = await createUser(other, uid, key);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await countUsers(other, uid)).toBe(1);
  });

  it("a deleted user's stored answers are gone, and an erased user's", async () => {
    const uid = unique('del');
    const key = unique('key');
    const first = await createUser(tenant, uid, key);
    expect(first.status).toBe(201);
    const token = await mobileToken(uid);
    const records = { records: [{ type: 'measurement', source: { type: 'withings' }, log_id: unique('x'), start_time: iso(Date.now() - 60_000), end_time: iso(Date.now() - 60_000), metrics: [{ type: 'body_weight', unit: 'kg', value: 71, origin: 'device' }] }] };
    expect((await postRecords(token, records, key)).status).toBe(200);
    expect((await createUser(tenant, uid, key)).headers.get('idempotent-replayed')).toBe('true');
    expect((await postRecords(token, records, key)).headers.get('idempotent-replayed')).toBe('true');
    expect((await tenant.api.delete(`${usersPath(tenant)}/${uid}`)).status).toBe(200);
    const again = await createUser(tenant, uid, key);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.text).not.toBe(first.text);
    expect((await postRecords(token, records, key)).status).toBe(401);

    const erasedUid = unique('era');
    const erasedKey = unique('key');
    const created = await createUser(tenant, erasedUid, erasedKey);
    expect(created.status).toBe(201);
    expect((await createUser(tenant, erasedUid, erasedKey)).headers.get('idempotent-replayed')).toBe('true');
    expect((await admin.post(`/admin${usersPath(tenant)}/${erasedUid}/erasure`, {})).status).toBe(200);
    const after = await eventually(async () => {
      const res = await createUser(tenant, erasedUid, erasedKey);
      return res.headers.get('idempotent-replayed') === null ? res : undefined;
    });
    expect(after.text).not.toBe(created.text);
  });

  if (mode === 'distributed') {
    it('a retry that reaches another replica of the users service gets the answer the first stored', async () => {
      const replica = await composeUsers(loadUsersConfig({ ...platform.env, WELLSTREAM_SERVICE_HOST: '127.0.0.1', WELLSTREAM_SERVICE_PORT: '0', WELLSTREAM_PUBLIC_URL: platform.publicUrl }));
      replicas.push(replica);
      const uid = unique('replica');
      const key = unique('key');
      const first = await createUser(tenant, uid, key);
      expect(first.status).toBe(201);
      const target = `/v2${usersPath(tenant)}`;
      const viaReplica = async () => {
        const headers = gatewayHeaders(TEST_GATEWAY_KEY, 'POST', target, { customerId: tenant.customerId, organizationId: tenant.organizationId });
        const res = await fetch(`${replica.url}${target}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ uid }) });
        return { status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() };
      };
      const again = await viaReplica();
      expect(again).toEqual({ status: 201, replayed: 'true', text: first.text });
      expect(await countUsers(tenant, uid)).toBe(1);
    });
  }
}

describe(`idempotent writes (${testRuntime()})`, () => idempotentWritesSuite(testRuntime()));
