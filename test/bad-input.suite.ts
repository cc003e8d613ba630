/**
 * Bad input across every endpoint, table-driven, through the gateway: wrong types, garbage query
 * values, repeated/nested query parameters, huge and non-JSON bodies, odd uids, impossible dates.
 * Each must get a clear 4xx in one of the documented body shapes, never a 500 or a stack trace.
 */
import { ApiClient, clearOfTheHourTurn, createTenant, TEST_ADMIN_TOKEN, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

interface Probe {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under base_url; `{org}`, `{uid}`, `{stream}`, `{cus}`, `{market}` are filled in. */
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Which client: the developer token (default), the operator, the user's mobile token, none. */
  as?: 'developer' | 'admin' | 'mobile' | 'none';
  /** Exact status when the contract fixes it; otherwise any 4xx. */
  status?: number;
}

const BIG = JSON.stringify({ uid: 'x', padding: 'x'.repeat(5 * 1024 * 1024 + 100) });
const FORM = 'uid=abc&location=x';
const rec = (extra: Record<string, unknown> = {}) => ({
  type: 'measurement',
  source: { type: 'apple_health' },
  log_id: 'probe',
  start_time: '2024-02-01T10:00:00Z',
  end_time: '2024-02-01T10:00:00Z',
  metrics: [{ type: 'body_weight', unit: 'kg', value: 70 }],
  ...extra,
});

const RECORD_KINDS = ['measurements', 'nutrition', 'sleep', 'summaries', 'workouts', 'intraday'];

const PROBES: Probe[] = [
  // Users
  { name: 'create user: uid of wrong type', method: 'POST', path: '/organizations/{org}/users', body: { uid: 123 }, status: 400 },
  { name: 'create user: body is an array', method: 'POST', path: '/organizations/{org}/users', body: [1, 2] },
  { name: 'create user: body is a JSON string', method: 'POST', path: '/organizations/{org}/users', rawBody: '"uid"' },
  { name: 'create user: body is null', method: 'POST', path: '/organizations/{org}/users', rawBody: 'null' },
  { name: 'create user: malformed JSON', method: 'POST', path: '/organizations/{org}/users', rawBody: '{"uid":', status: 400 },
  { name: 'create user: form body', method: 'POST', path: '/organizations/{org}/users', rawBody: FORM, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { name: 'create user: text/plain body', method: 'POST', path: '/organizations/{org}/users', rawBody: '{"uid":"plain-1"}', headers: { 'content-type': 'text/plain' } },
  { name: 'create user: > 5 MB body', method: 'POST', path: '/organizations/{org}/users', rawBody: BIG, status: 413 },
  { name: 'create user: unicode uid', method: 'POST', path: '/organizations/{org}/users', body: { uid: 'üser-☃' } },
  { name: 'create user: traversal uid', method: 'POST', path: '/organizations/{org}/users', body: { uid: '../../etc/passwd' } },
  { name: 'create user: uid with NUL', method: 'POST', path: '/organizations/{org}/users', body: { uid: 'a\u0000b' } },
  { name: 'create user: location of wrong type', method: 'POST', path: '/organizations/{org}/users', body: { uid: 'probe-loc', location: 'Berlin' } },
  { name: 'create user: unknown time zone', method: 'POST', path: '/organizations/{org}/users', body: { uid: 'probe-tz', location: { timezone: 'Mars/Olympus' } }, status: 422 },
  { name: 'create user: timezone of wrong type', method: 'POST', path: '/organizations/{org}/users', body: { uid: 'probe-tz2', location: { timezone: ['UTC'] } } },
  { name: 'create user: bad country', method: 'POST', path: '/organizations/{org}/users', body: { uid: 'probe-cc', location: { country_code: 'ZZ' } }, status: 422 },
  { name: 'create user: duplicate uid', method: 'POST', path: '/organizations/{org}/users', body: { uid: '{uid}' }, status: 422 },
  { name: 'list users: limit garbage', method: 'GET', path: '/organizations/{org}/users?limit=abc', status: 400 },
  { name: 'list users: limit huge', method: 'GET', path: '/organizations/{org}/users?limit=99999999999999999999', status: 400 },
  { name: 'list users: negative offset', method: 'GET', path: '/organizations/{org}/users?offset=-1', status: 400 },
  { name: 'list users: offset float', method: 'GET', path: '/organizations/{org}/users?offset=1.5', status: 400 },
  { name: 'list users: repeated limit', method: 'GET', path: '/organizations/{org}/users?limit=1&limit=2', status: 400 },
  { name: 'list users: nested limit', method: 'GET', path: '/organizations/{org}/users?limit[a]=1', status: 400 },
  { name: 'list users: bad sort', method: 'GET', path: '/organizations/{org}/users?sort=uid;drop', status: 400 },
  { name: 'get user: unknown', method: 'GET', path: '/organizations/{org}/users/nobody', status: 404 },
  { name: 'get user: unicode uid', method: 'GET', path: `/organizations/{org}/users/${encodeURIComponent('üser-☃')}`, status: 404 },
  { name: 'get user: encoded traversal', method: 'GET', path: '/organizations/{org}/users/..%2F..%2Fadmin' },
  { name: 'get user: bad percent-encoding', method: 'GET', path: '/organizations/{org}/users/%E0%A4%A' },
  { name: 'bad percent-encoding in the organization', method: 'GET', path: '/organizations/%E0%A4%A/users' },
  { name: 'get user: NUL', method: 'GET', path: '/organizations/{org}/users/a%00b' },
  { name: 'get user: very long uid', method: 'GET', path: `/organizations/{org}/users/${'u'.repeat(5000)}`, status: 404 },
  { name: 'get user: unknown organization', method: 'GET', path: '/organizations/org_nope/users/{uid}', status: 401 },
  { name: 'update user: location wrong type', method: 'PUT', path: '/organizations/{org}/users/{uid}', body: { location: 5 } },
  { name: 'update user: unknown time zone', method: 'PUT', path: '/organizations/{org}/users/{uid}', body: { location: { timezone: '../../UTC' } } },
  { name: 'update user: > 5 MB body', method: 'PUT', path: '/organizations/{org}/users/{uid}', rawBody: BIG, status: 413 },
  { name: 'update user: text/plain body', method: 'PUT', path: '/organizations/{org}/users/{uid}', rawBody: 'hello', headers: { 'content-type': 'text/plain' } },
  { name: 'delete user: unknown', method: 'DELETE', path: '/organizations/{org}/users/nobody', status: 404 },
  { name: 'refresh marketplace: unknown user', method: 'POST', path: '/organizations/{org}/users/nobody/marketplace', status: 404 },
  // Records
  ...RECORD_KINDS.flatMap((k): Probe[] => [
    { name: `${k}: impossible start_date`, method: 'GET', path: `/organizations/{org}/users/{uid}/${k}?start_date=2024-02-30`, status: 400 },
    { name: `${k}: garbage end_date`, method: 'GET', path: `/organizations/{org}/users/{uid}/${k}?end_date=tomorrow`, status: 400 },
  ]),
  { name: 'records: range over 30 days', method: 'GET', path: '/organizations/{org}/users/{uid}/summaries?start_date=2024-01-01&end_date=2024-03-01', status: 400 },
  { name: 'records: end before start', method: 'GET', path: '/organizations/{org}/users/{uid}/sleep?start_date=2024-03-01&end_date=2024-02-01', status: 400 },
  { name: 'records: repeated start_date', method: 'GET', path: '/organizations/{org}/users/{uid}/sleep?start_date=2024-03-01&start_date=2024-03-02', status: 400 },
  { name: 'records: nested start_date', method: 'GET', path: '/organizations/{org}/users/{uid}/sleep?start_date[gt]=2024-03-01', status: 400 },
  { name: 'records: unknown source', method: 'GET', path: '/organizations/{org}/users/{uid}/sleep?source=nope', status: 422 },
  { name: 'records: repeated source', method: 'GET', path: '/organizations/{org}/users/{uid}/sleep?source=demo&source=fitbit' },
  { name: 'records: unknown user', method: 'GET', path: '/organizations/{org}/users/nobody/sleep', status: 404 },
  { name: 'records: unknown kind', method: 'GET', path: '/organizations/{org}/users/{uid}/weather', status: 404 },
  // Mobile ingestion
  { name: 'mobile: no token', method: 'POST', path: '/mobile/records', body: { records: [rec()] }, as: 'none', status: 401 },
  { name: 'mobile: repeated token', method: 'POST', path: '/mobile/records?token=a&token=b', body: { records: [rec()] }, as: 'none', status: 401 },
  { name: 'mobile: records not an array', method: 'POST', path: '/mobile/records', body: { records: 'x' }, as: 'mobile', status: 400 },
  { name: 'mobile: body an array', method: 'POST', path: '/mobile/records', body: [rec()], as: 'mobile', status: 400 },
  { name: 'mobile: impossible date', method: 'POST', path: '/mobile/records', body: { records: [rec({ start_time: '2024-02-30T10:00:00Z' })] }, as: 'mobile', status: 400 },
  { name: 'mobile: value a string', method: 'POST', path: '/mobile/records', body: { records: [rec({ metrics: [{ type: 'body_weight', unit: 'kg', value: '70' }] })] }, as: 'mobile', status: 400 },
  { name: 'mobile: utc_offset a string', method: 'POST', path: '/mobile/records', body: { records: [rec({ utc_offset: '3600' })] }, as: 'mobile', status: 400 },
  { name: 'mobile: deleted a string', method: 'POST', path: '/mobile/records', body: { records: [rec({ deleted: 'true' })] }, as: 'mobile', status: 400 },
  { name: 'mobile: unknown type', method: 'POST', path: '/mobile/records', body: { records: [rec({ type: 'weather' })] }, as: 'mobile', status: 400 },
  { name: 'mobile: huge utc_offset', method: 'POST', path: '/mobile/records', body: { records: [rec({ utc_offset: 1e12 })] }, as: 'mobile', status: 400 },
  { name: 'mobile: unicode log_id too long', method: 'POST', path: '/mobile/records', body: { records: [rec({ log_id: '☃'.repeat(300) })] }, as: 'mobile', status: 400 },
  { name: 'mobile: > 5 MB body', method: 'POST', path: '/mobile/records', rawBody: BIG, as: 'mobile', status: 413 },
  { name: 'mobile: text/plain body', method: 'POST', path: '/mobile/records', rawBody: JSON.stringify({ records: [rec()] }), headers: { 'content-type': 'text/plain' }, as: 'mobile' },
  { name: 'mobile: malformed JSON', method: 'POST', path: '/mobile/records', rawBody: '{"records":[', as: 'mobile', status: 400 },
  // Streams
  { name: 'create stream: name wrong type', method: 'POST', path: '/streams', body: { name: 5 } },
  { name: 'create stream: no name', method: 'POST', path: '/streams', body: {} },
  { name: 'create stream: impossible start_date', method: 'POST', path: '/streams', body: { name: 'p1', start_date: '2024-02-30' } },
  { name: 'create stream: resource_filter a string', method: 'POST', path: '/streams', body: { name: 'p2', resource_filter: 'sleep' } },
  { name: 'create stream: unknown resource', method: 'POST', path: '/streams', body: { name: 'p3', resource_filter: ['weather'] } },
  { name: 'create stream: poke in event filter', method: 'POST', path: '/streams', body: { name: 'p4', event_type_filter: ['poke'] } },
  { name: 'create stream: duplicate name', method: 'POST', path: '/streams', body: { name: 'probe-stream' }, status: 422 },
  { name: 'create stream: > 5 MB body', method: 'POST', path: '/streams', rawBody: BIG, status: 413 },
  { name: 'create stream: form body', method: 'POST', path: '/streams', rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { name: 'list streams: bad q', method: 'GET', path: '/streams?q=colour%3Dred' },
  { name: 'list streams: bad sort', method: 'GET', path: '/streams?sort=name' },
  { name: 'list streams: repeated sort', method: 'GET', path: '/streams?sort=updated_at&sort=-created_at' },
  { name: 'list streams: limit garbage', method: 'GET', path: '/streams?limit=abc&offset=-3' },
  { name: 'get stream: unknown', method: 'GET', path: '/streams/nope', status: 404 },
  { name: 'get stream: traversal', method: 'GET', path: '/streams/..%2F..%2Fadmin' },
  { name: 'update stream: no name', method: 'PUT', path: '/streams/{stream}', body: {} },
  { name: 'update stream: unknown', method: 'PUT', path: '/streams/nope', body: { name: 'x' }, status: 404 },
  { name: 'delete stream: unknown', method: 'DELETE', path: '/streams/nope', status: 404 },
  { name: 'connect: unknown stream', method: 'GET', path: '/streams/nope/connect', status: 404 },
  { name: 'replay: impossible date', method: 'GET', path: '/replay?date=2024-02-30', status: 400 },
  { name: 'replay: unknown resource', method: 'GET', path: '/replay?resources=weather', status: 400 },
  { name: 'replay: poke as event type', method: 'GET', path: '/replay?event_types=poke', status: 400 },
  { name: 'replay: repeated date', method: 'GET', path: '/replay?date=2024-02-01&date=2024-02-02', status: 400 },
  // Push service
  { name: 'target: url wrong type', method: 'PUT', path: '/organizations/{org}/notification_target', body: { url: 5 } },
  { name: 'target: ftp url', method: 'PUT', path: '/organizations/{org}/notification_target', body: { url: 'ftp://127.0.0.1/x' }, status: 422 },
  { name: 'target: metadata address', method: 'PUT', path: '/organizations/{org}/notification_target', body: { url: 'http://169.254.169.254/' }, status: 422 },
  { name: 'target: secret wrong type', method: 'PUT', path: '/organizations/{org}/notification_target', body: { url: 'http://127.0.0.1:9/x', secret: { a: 1 } } },
  { name: 'target: > 5 MB body', method: 'PUT', path: '/organizations/{org}/notification_target', rawBody: BIG, status: 413 },
  { name: 'target: text/plain body', method: 'PUT', path: '/organizations/{org}/notification_target', rawBody: 'url', headers: { 'content-type': 'text/plain' } },
  { name: 'target: none yet', method: 'GET', path: '/organizations/{org}/notification_target', status: 404 },
  { name: 'notifications: bad status', method: 'GET', path: '/organizations/{org}/notifications?status=maybe', status: 400 },
  { name: 'notifications: impossible start_time', method: 'GET', path: '/organizations/{org}/notifications?start_time=2024-02-30T00:00:00Z', status: 400 },
  { name: 'notifications: garbage end_time', method: 'GET', path: '/organizations/{org}/notifications?end_time=yesterday', status: 400 },
  { name: 'notifications: repeated status', method: 'GET', path: '/organizations/{org}/notifications?status=success&status=failure', status: 400 },
  { name: 'notifications: limit garbage', method: 'GET', path: '/organizations/{org}/notifications?limit=-5&offset=x', status: 400 },
  { name: 'notifications: unknown batch', method: 'GET', path: '/organizations/{org}/notifications/nope', status: 404 },
  { name: 'notifications: traversal batch id', method: 'GET', path: '/organizations/{org}/notifications/..%2F..%2Fx' },
  // Rules (feature disabled)
  { name: 'rules: create garbage', method: 'POST', path: '/organizations/{org}/users/{uid}/rules', body: { type: 5 } },
  { name: 'rules: update unknown', method: 'PUT', path: '/organizations/{org}/users/{uid}/rules/nope', body: {} },
  { name: 'rules: delete unknown', method: 'DELETE', path: '/organizations/{org}/users/{uid}/rules/nope' },
  { name: 'rules: > 5 MB body', method: 'POST', path: '/organizations/{org}/users/{uid}/rules', rawBody: BIG, status: 413 },
  // Marketplace (public)
  { name: 'marketplace: unknown token', method: 'GET', path: '/marketplace/nope', headers: { accept: 'application/json' }, as: 'none', status: 404 },
  { name: 'marketplace: unknown source', method: 'POST', path: '/marketplace/{market}/sources/weather/connect', body: {}, headers: { accept: 'application/json' }, as: 'none', status: 404 },
  { name: 'marketplace: provider source not offered (no credentials)', method: 'POST', path: '/marketplace/{market}/sources/polar/connect', body: {}, headers: { accept: 'application/json' }, as: 'none', status: 404 },
  { name: 'marketplace: source no longer in the catalog', method: 'POST', path: '/marketplace/{market}/sources/jawbone/connect', body: {}, headers: { accept: 'application/json' }, as: 'none', status: 404 },
  { name: 'marketplace: bad time zone', method: 'POST', path: '/marketplace/{market}/timezone', body: { timezone: '../etc' }, headers: { accept: 'application/json' }, as: 'none' },
  { name: 'marketplace: time zone wrong type', method: 'POST', path: '/marketplace/{market}/timezone', body: { timezone: 5 }, headers: { accept: 'application/json' }, as: 'none' },
  { name: 'marketplace: > 5 MB body', method: 'POST', path: '/marketplace/{market}/timezone', rawBody: BIG, headers: { accept: 'application/json' }, as: 'none', status: 413 },
  // Auth and operator API
  { name: 'no token', method: 'GET', path: '/streams', as: 'none', status: 401 },
  { name: 'repeated token', method: 'GET', path: '/streams?token=a&token=b', as: 'none', status: 401 },
  { name: 'nested token', method: 'GET', path: '/streams?token[a]=b', as: 'none', status: 401 },
  { name: 'admin: customer name wrong type', method: 'POST', path: '/admin/customers', body: { name: 5 }, as: 'admin' },
  { name: 'admin: customer > 5 MB', method: 'POST', path: '/admin/customers', rawBody: BIG, as: 'admin', status: 413 },
  { name: 'admin: customer form body', method: 'POST', path: '/admin/customers', rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, as: 'admin' },
  { name: 'admin: org of unknown customer', method: 'POST', path: '/admin/customers/nope/organizations', body: { name: 'x' }, as: 'admin', status: 404 },
  { name: 'admin: token rate garbage', method: 'POST', path: '/admin/customers/{cus}/tokens', body: { rate_limit_per_hour: 'lots' }, as: 'admin' },
  { name: 'admin: token rate negative', method: 'POST', path: '/admin/customers/{cus}/tokens', body: { rate_limit_per_hour: -1 }, as: 'admin' },
  { name: 'admin: revoke unknown token', method: 'DELETE', path: '/admin/tokens/nope', as: 'admin', status: 404 },
  { name: 'admin: suspend unknown user', method: 'POST', path: '/admin/organizations/{org}/users/nobody/suspend', as: 'admin', status: 404 },
  { name: 'admin: developer token on operator API', method: 'POST', path: '/admin/customers', body: { name: 'x' }, status: 401 },
];

/** The three documented error body shapes. */
function documentedShape(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (typeof b.message === 'string') return true;
  if (Array.isArray(b.errors)) return b.errors.length > 0 && b.errors.every((e) => typeof e === 'string');
  if (b.errors && typeof b.errors === 'object') {
    const entries = Object.values(b.errors as Record<string, unknown>);
    return entries.length > 0 && entries.every((v) => Array.isArray(v) && v.length > 0 && v.every((e) => typeof e === 'string'));
  }
  return false;
}

export function badInputSuite(mode: 'embedded' | 'distributed' | 'containers', start?: () => Promise<Pick<TestPlatform, 'baseUrl' | 'stop'>>): void {
  describe(`acceptance: bad input never answers 500 (${mode})`, () => {
    let platform: Pick<TestPlatform, 'baseUrl' | 'stop'>;
    let tenant: Tenant;
    const fill: Record<string, string> = {};
    const clients: Record<string, ApiClient> = {};

    beforeAll(async () => {
      platform = start ? await start() : await startTestPlatform({ mode: mode === 'embedded' ? 'embedded' : 'distributed', label: 'badinput' });
      tenant = await createTenant(platform.baseUrl);
      const uid = `probe-${Date.now().toString(36)}`;
      const created = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid, location: { timezone: 'UTC' } });
      if (created.status !== 201) throw new Error(`create user: ${created.status} ${created.text}`);
      const got = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`);
      const stream = await tenant.api.post('/streams', { name: 'probe-stream' });
      Object.assign(fill, { org: tenant.organizationId, uid, stream: stream.body.id, cus: tenant.customerId, market: got.body.marketplace.token });
      clients.developer = tenant.api;
      clients.admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      clients.mobile = new ApiClient(platform.baseUrl, got.body.mobile.token);
      clients.none = new ApiClient(platform.baseUrl);
    });
    afterAll(async () => {
      await platform?.stop();
    });

    it.each(PROBES.map((p) => [p.name, p] as const))('%s', async (_name, p) => {
      const path = p.path.replace(/\{(\w+)\}/g, (_m, k: string) => fill[k]);
      const res = await clients[p.as ?? 'developer'].request(p.method, path, p.rawBody === undefined ? p.body : undefined, { headers: p.headers, rawBody: p.rawBody });
      const seen = { status: res.status, body: res.text.slice(0, 300) };
      if (p.status) expect(seen).toMatchObject({ status: p.status });
      else expect(seen.status >= 400 && seen.status < 500 ? 'a 4xx' : seen).toBe('a 4xx');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(documentedShape(res.body) ? 'documented shape' : seen).toBe('documented shape');
      expect(res.text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules|Error:/);
    });

    it('PUT on a stream changes only the name (documented: other fields are ignored, filters stay)', async () => {
      const s = await tenant.api.post('/streams', { name: 'probe-filtered', resource_filter: ['sleep'] });
      const put = await tenant.api.put(`/streams/${s.body.id}`, { name: 'probe-renamed', resource_filter: ['summary'] });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ name: 'probe-renamed', resource_filter: ['sleep'] });
      expect((await tenant.api.delete(`/streams/${s.body.id}`)).status).toBe(200);
    });

    it('past the hourly limit: 429 {"message"} with Retry-After and the X-RateLimit headers', async () => {
      await clearOfTheHourTurn(15_000);
      const t = await createTenant(platform.baseUrl, { rateLimitPerHour: 3 });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await t.api.get('/streams'));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3].body).toEqual({ message: expect.any(String) });
      expect(Number(answers[3].headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
      for (const a of answers) expect(a.headers.get('x-ratelimit-limit')).toBe('3');
    });
  });
}
