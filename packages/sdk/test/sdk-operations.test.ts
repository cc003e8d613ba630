/**
 * The SDK against a running platform: every operation of the published document once through its
 * typed method (the operations the SDK sent are compared with the document's), typed errors with
 * the documented bodies, rate-limit headers on every answer, and 429 handling.
 */
import { clearOfTheHourTurn } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { AuthenticationError, NotFoundError, OPERATIONS, ParameterError, RateLimitError, ValidationError, Wellstream } from '../src';
import { postMeasurements, sdkTenant } from './sdk-fixtures';

jest.setTimeout(60_000);
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WELLSTREAM_REPLAY_MAX_PER_CUSTOMER: '1', WELLSTREAM_POKE_INTERVAL_MS: '1000' } });
});
afterAll(() => platform?.stop());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const operationOf = (method: string, path: string) => Object.entries(OPERATIONS).find(([, o]) => o.method === method && o.path === path)?.[0];

describe('every REST operation through its typed method', () => {
  it('covers the served document and answers what the types say', async () => {
    const sent = new Set<string>();
    const record = ({ method, path }: { method: string; path: string }) => void sent.add(operationOf(method, path) ?? `${method} ${path}`);
    const t = await sdkTenant(platform.baseUrl);
    const admin = new Wellstream({ baseUrl: platform.baseUrl, token: (t.admin as any).http.token, onResponse: record });
    const ws = new Wellstream({ baseUrl: platform.baseUrl, token: t.token, onResponse: record });

    const customer = await admin.admin.createCustomer({ name: 'Other' });
    const org = await admin.admin.createOrganization(customer.id, { name: 'Other org' });
    const spare = await admin.admin.issueToken(customer.id);
    await admin.admin.updateOrganizationSettings(t.orgId, { rules_enabled: true });
    expect((await admin.admin.listCustomers({ sort: '-created_at', limit: 1 })).data.map((c) => c.id)).toEqual([customer.id]);
    expect((await admin.admin.getCustomer(customer.id)).name).toBe('Other');
    expect((await admin.admin.listOrganizations(customer.id)).data.map((o) => o.id)).toEqual([org.id]);
    expect((await admin.admin.getOrganization(org.id)).customer_id).toBe(customer.id);
    const [listed] = (await admin.admin.listTokens(customer.id)).data;
    expect(listed.prefix).toBe(spare.token.slice(0, 12));
    expect((await admin.admin.getToken(customer.id, listed.id)).usage.current_hour.requests).toBe(0);

    const user = await ws.users.create(t.orgId, { uid: 'sdk-user-1', location: { timezone: 'Europe/Berlin', country_code: 'DE' } });
    expect(user.uid).toBe('sdk-user-1');
    expect((await ws.users.list(t.orgId)).meta.total).toBe(1);
    const detail = await ws.users.get(t.orgId, 'sdk-user-1');
    expect(detail.mobile.token).toEqual(expect.any(String));
    await ws.users.update(t.orgId, 'sdk-user-1', { location: { timezone: 'Europe/Paris', country_code: 'FR' } });
    const refreshed = await ws.users.refreshMarketplace(t.orgId, 'sdk-user-1');
    const mtoken = refreshed.marketplace.token;

    await postMeasurements(ws, detail.mobile.token, 3, 'ops');
    expect(await ws.mobile.connectSource(detail.mobile.token, 'apple_health')).toEqual({ source: { type: 'apple_health' }, connected: true });
    const rotated = await ws.users.rotateMobileToken(t.orgId, 'sdk-user-1');
    expect(rotated.mobile.token).not.toBe(detail.mobile.token);
    await postMeasurements(ws, rotated.mobile.token, 1, 'rotated');
    for (const type of ['measurements', 'nutrition', 'sleep', 'summaries', 'workouts', 'intraday'] as const) {
      const page = await ws.records.list(t.orgId, 'sdk-user-1', type, { start_date: day(-1), end_date: day(1) });
      expect(Array.isArray(page.data)).toBe(true);
      if (type === 'measurements') expect(page.data.length).toBeGreaterThanOrEqual(1);
    }

    expect((await ws.marketplace.open(mtoken)).user).toBeDefined();
    await ws.marketplace.chooseTimezone(mtoken, 'Europe/Berlin');
    await ws.marketplace.connect(mtoken, 'demo');
    await ws.marketplace.disconnect(mtoken, 'demo');

    const stream = await ws.streams.create({ name: 'ops', resource_filter: ['measurement'] });
    expect((await ws.streams.list()).streams.map((s) => s.id)).toContain(stream.id);
    expect((await ws.streams.get(stream.id)).name).toBe('ops');
    expect((await ws.streams.rename(stream.id, 'ops-2')).name).toBe('ops-2');
    const events = ws.streams.connect(stream.id, { includePokes: true });
    for await (const e of events) if (e.type === 'poke') break;
    sent.add('connectStream');
    const watched = ws.streams.tail(stream.id, { includePokes: true });
    for await (const e of watched) if (e.type === 'poke') break;
    sent.add('tailStream');
    const replay = ws.replay({ event_types: 'data' }, { includePokes: true });
    for await (const e of replay) if (e.type === 'poke') break;
    sent.add('replay');
    expect((await ws.streams.delete(stream.id)).deleted_at).toEqual(expect.any(String));

    await ws.notifications.setTarget(t.orgId, { url: 'http://127.0.0.1:9/hook', secret: 'sixteen-chars-secret' });
    expect((await ws.notifications.getTarget(t.orgId)).url).toBe('http://127.0.0.1:9/hook');
    const batches = await ws.notifications.listBatches(t.orgId);
    const batchId = batches.data[0]?.id ?? 'no-such-batch';
    await ws.notifications.getBatch(t.orgId, batchId).catch((e) => expect(e).toBeInstanceOf(NotFoundError));
    await ws.notifications.redeliver(t.orgId, batchId).catch((e) => expect(e).toBeInstanceOf(NotFoundError));
    await ws.notifications.deleteTarget(t.orgId);

    const rule = await ws.rules.create(t.orgId, 'sdk-user-1', { type: 'inactivity', window: 'P1D', message: 'weigh in', metric: { type: 'body_weight', origin: null }, threshold: { value: 1, comparator: 'less_than' } } as never).catch((e) => e);
    const ruleId = rule.id ?? 'no-such-rule';
    await ws.rules.list(t.orgId, 'sdk-user-1');
    await ws.rules.get(t.orgId, 'sdk-user-1', ruleId).catch(() => undefined);
    await ws.rules.update(t.orgId, 'sdk-user-1', ruleId, { type: 'inactivity', window: 'P1D', message: 'weigh in!', metric: { type: 'body_weight', origin: null }, threshold: { value: 1, comparator: 'less_than' } } as never).catch(() => undefined);
    await ws.rules.delete(t.orgId, 'sdk-user-1', ruleId).catch(() => undefined);

    expect((await ws.fhir.capabilities(t.orgId)).resourceType).toBe('CapabilityStatement');
    expect((await ws.fhir.readPatient(t.orgId, 'sdk-user-1')).resourceType).toBe('Patient');
    expect((await ws.fhir.searchPatients(t.orgId, 'sdk-user-1')).resourceType).toBe('Bundle');
    const observations = (await ws.fhir.searchObservations(t.orgId, { patient: 'sdk-user-1', date: `ge${day(-1)}` })) as unknown as { entry: { resource: { device: { reference: string } } }[] };
    expect(observations.entry.length).toBeGreaterThanOrEqual(1);
    expect((await ws.fhir.readDevice(t.orgId, observations.entry[0].resource.device.reference.split('/')[1])).resourceType).toBe('Device');
    const started = await ws.fhir.exportPatients(t.orgId, { _type: 'Patient' });
    await ws.fhir.exportGroup(t.orgId, { _type: 'Patient' });
    const manifest = await (async () => {
      for (;;) {
        const m = await ws.fhir.exportStatus(t.orgId, started.jobId);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    expect(manifest.output.map((o) => o.type)).toEqual(['Patient']);
    expect((await ws.fhir.cancelExport(t.orgId, started.jobId)).resourceType).toBe('OperationOutcome');
    expect((await ws.records.availability(t.orgId, 'sdk-user-1')).sources).toEqual(expect.any(Array));
    const priority = await ws.records.getSourcePriority(t.orgId);
    await ws.records.setSourcePriority(t.orgId, { resources: { sleep: ['oura', 'apple_health'] } } as never);
    await admin.admin.getSourcePriority(t.orgId);
    await admin.admin.setSourcePriority(t.orgId, { resources: {} } as never);
    expect(priority).toBeDefined();
    expect((await admin.admin.getIngestion(t.orgId, { start_date: day(-1) })).data).toHaveLength(2);
    expect((await admin.admin.countSources(t.orgId)).organization_id).toBe(t.orgId);
    await admin.admin.suspendUser(t.orgId, 'sdk-user-1');
    await admin.admin.unsuspendUser(t.orgId, 'sdk-user-1');
    const exported = await admin.admin.requestUserExport(t.orgId, 'sdk-user-1');
    expect((await admin.admin.getUserExport(t.orgId, 'sdk-user-1', exported.id)).id).toBe(exported.id);
    expect((await ws.users.delete(t.orgId, 'sdk-user-1')).deleted_at).toEqual(expect.any(String));
    expect((await admin.admin.eraseUser(t.orgId, 'sdk-user-1')).status).toBe('erased');
    expect((await admin.admin.listAuditLog({ customer_id: customer.id, action: 'export.requested' })).data).toEqual(expect.any(Array));
    await admin.admin.revokeToken(spare.token);
    await admin.admin.deleteCustomer(customer.id);
    expect(org.customer_id).toBe(customer.id);

    // Providers and users' browsers call these (a provider's redirect and notifications, a
    // marketplace's Reconnect that answers 303 to the provider): never a customer's code. An
    // export's file is fetched through the signed link getUserExport hands out, as a file.
    const notForCustomers = ['providerCallback', 'providerWebhookHandshake', 'providerWebhookNotification', 'providerWebhookProbe', 'reconnectProviderSource', 'downloadUserExport', 'fhirExportFile'];
    expect([...sent].sort()).toEqual(Object.keys(OPERATIONS).filter((id) => !notForCustomers.includes(id)).sort());
  });
});

describe('answers and errors', () => {
  it('exposes the rate-limit headers on every answer', async () => {
    const t = await sdkTenant(platform.baseUrl, { rateLimitPerHour: 50 });
    const list = await t.client.streams.list();
    expect(list.$response.status).toBe(200);
    expect(list.$response.rateLimit).toEqual({ limit: 50, remaining: 49, reset: expect.any(Date) });
    expect(JSON.parse(JSON.stringify(list))).not.toHaveProperty('$response');
    expect(t.client.rateLimit?.remaining).toBe(49);
  });

  it('throws typed errors carrying the documented body and status', async () => {
    const t = await sdkTenant(platform.baseUrl);
    const missing = await t.client.users.get(t.orgId, 'nobody').catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, body: { errors: [expect.any(String)] } });
    expect(missing.requestId).toEqual(expect.any(String));
    const invalid = await t.client.users.create(t.orgId, { uid: 'x', location: { timezone: 'Mars/Olympus', country_code: null } }).catch((e) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(Object.keys(invalid.fieldErrors).length).toBeGreaterThan(0);
    const denied = await new Wellstream({ baseUrl: platform.baseUrl, token: 'not-a-token' }).streams.list().catch((e) => e);
    expect(denied).toBeInstanceOf(AuthenticationError);
    expect(denied.body).toEqual({ message: expect.any(String) });
    expect(denied.url).not.toContain('not-a-token');
  });

  it('refuses a missing required parameter before any request', async () => {
    let requests = 0;
    const ws = new Wellstream({ baseUrl: platform.baseUrl, token: 't', fetch: (...a) => (requests++, fetch(...a)) });
    // @ts-expect-error uid is required: the types refuse the call, and so does the SDK at run time
    await expect(ws.users.get('org')).rejects.toThrow(ParameterError);
    await expect(ws.users.get('org', '')).rejects.toThrow(/path parameter "uid" is required/);
    expect(() => new Wellstream({ baseUrl: '' })).toThrow(ParameterError);
    expect(requests).toBe(0);
  });

  it('throws RateLimitError past the hourly limit (Retry-After longer than it may wait), with or without retries', async () => {
    // The limit's window is the clock hour: its Retry-After (at least 25 s here) is longer than the
    // 10 s this client may wait, so it throws instead of waiting for the next hour.
    await clearOfTheHourTurn(25_000);
    const t = await sdkTenant(platform.baseUrl, { rateLimitPerHour: 2 });
    const client = new Wellstream({ baseUrl: platform.baseUrl, token: t.token, retry: { maxDelayMs: 10_000 } });
    await client.streams.list();
    await client.streams.list();
    const started = Date.now();
    const limited = await client.streams.list().catch((e) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, body: { message: expect.any(String) } });
    expect(limited.retryAfterSeconds).toBeGreaterThan(10);
    const withoutRetries = await new Wellstream({ baseUrl: platform.baseUrl, token: t.token, retry: { enabled: false } }).streams.list().catch((e) => e);
    expect(withoutRetries).toBeInstanceOf(RateLimitError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('waits out a 429 with Retry-After on an event stream (the replay quota) and then connects', async () => {
    const t = await sdkTenant(platform.baseUrl);
    const first = t.client.replay({}, { includePokes: true });
    const firstIt = first[Symbol.asyncIterator]();
    await firstIt.next();
    const reasons: string[] = [];
    const second = t.client.replay({}, { includePokes: true, onReconnect: (r) => reasons.push(`${r.reason} ${r.delayMs}`) });
    setTimeout(() => first.close(), 300);
    for await (const e of second) if (e.type === 'poke') break;
    await firstIt.return?.(undefined);
    expect(reasons).toEqual(['HTTP 429 1000']);
  });
});
