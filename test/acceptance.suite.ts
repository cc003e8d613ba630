/**
 * Black-box acceptance test: the whole platform used as a customer would, over HTTP through the
 * gateway only, as the OpenAPI document describes it. Run embedded and on
 * Kafka/MongoDB/Redis by acceptance.both.test.ts, and against the containers by
 * containers/platform.containers.test.ts.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, ApiResponse, connectSse, eventually, SseConnection, TEST_ADMIN_TOKEN, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const STACK = /\n\s+at |\.ts:\d+|node_modules/;

/** Remembers every answer so the test can check the rate-limit headers on all of them. */
class RecordingClient extends ApiClient {
  constructor(
    baseUrl: string,
    token: string | undefined,
    readonly log: { method: string; path: string; res: ApiResponse }[],
  ) {
    super(baseUrl, token);
  }
  override async request<T = any>(method: string, path: string, body?: unknown, init?: { headers?: Record<string, string>; rawBody?: string }) {
    const res = await super.request<T>(method, path, body, init);
    this.log.push({ method, path, res });
    return res;
  }
}

interface Push {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { id: string; items: any[] };
}

async function startReceiver(): Promise<{ url: string; received: Push[]; close(): Promise<void> }> {
  const received: Push[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Expected utc_offset (seconds) of `zone` at `iso`, from the runtime's Olson rules. */
function offsetOf(zone: string, iso: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(iso)).find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
}

/** What the suites need of a platform; `start` lets them run on one started elsewhere (containers). */
export type PlatformUnderTest = Pick<TestPlatform, 'baseUrl' | 'url' | 'publicUrl' | 'stop'>;
/** The settings the suites expect of a platform they did not start themselves. */
export const ACCEPTANCE_ENV = { WELLSTREAM_DEMO_TICK_MS: '2000', WELLSTREAM_DEMO_BACKFILL_DAYS: '2' };

export function acceptanceSuite(mode: 'embedded' | 'distributed' | 'containers', start?: () => Promise<PlatformUnderTest>): void {
  describe(`acceptance: the customer journey (${mode})`, () => {
    let platform: PlatformUnderTest;
    const log: { method: string; path: string; res: ApiResponse }[] = [];
    let api: RecordingClient;
    let tenant: Tenant;
    let org: string;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let stream: SseConnection;
    let pokeStream: SseConnection;
    let streamId: string;
    let user: any;
    let mobile: ApiClient;
    let posted: any;
    const uid = `acc-${Date.now().toString(36)}`;
    const zone = 'Europe/Berlin';
    const secret = 'acceptance-secret-0123456789';
    const users = () => `/organizations/${org}/users`;

    beforeAll(async () => {
      platform = start ? await start() : await startTestPlatform({ mode: mode === 'embedded' ? 'embedded' : 'distributed', label: 'acceptance', env: ACCEPTANCE_ENV });
      receiver = await startReceiver();
    });
    afterAll(async () => {
      stream?.close();
      pokeStream?.close();
      await receiver?.close();
      await platform?.stop();
    });

    it('operator creates a customer, an organization and a developer token', async () => {
      const admin = new RecordingClient(platform.baseUrl, TEST_ADMIN_TOKEN, log);
      const c = await admin.post('/admin/customers', { name: 'Acceptance Inc' });
      expect(c.status).toBe(201);
      expect(c.body).toEqual({ id: expect.any(String), name: 'Acceptance Inc', created_at: expect.any(String) });
      const o = await admin.post(`/admin/customers/${c.body.id}/organizations`, { name: 'Acceptance EU' });
      expect(o.status).toBe(201);
      // Extra fields (settings) are allowed; the contract's fields must be there.
      expect(o.body).toMatchObject({ id: expect.any(String), customer_id: c.body.id, name: 'Acceptance EU', created_at: expect.any(String) });
      const t = await admin.post(`/admin/customers/${c.body.id}/tokens`, {});
      expect(t.status).toBe(201);
      expect(t.body).toEqual({ token: expect.any(String), customer_id: c.body.id, rate_limit_per_hour: expect.any(Number), created_at: expect.any(String) });
      org = o.body.id;
      api = new RecordingClient(platform.baseUrl, t.body.token, log);
      tenant = { customerId: c.body.id, organizationId: org, token: t.body.token, api };
      const health = await fetch(`${platform.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
    });

    it('the customer creates a user with a time zone; GET adds mobile.token; the marketplace lists sources', async () => {
      const created = await api.post(users(), { uid, location: { timezone: zone, country_code: 'DE' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ uid, location: { timezone: zone, country_code: 'DE' }, sources: [] });
      const got = await api.get(`${users()}/${uid}`);
      expect(got.status).toBe(200);
      user = got.body;
      expect(user.marketplace.url.startsWith(platform.publicUrl)).toBe(true);
      expect(user.marketplace.url.startsWith(`${platform.publicUrl}/v2/`)).toBe(true);
      expect(user.mobile.token).toEqual(expect.any(String));
      const market = await fetch(user.marketplace.url, { headers: { accept: 'application/json' } });
      expect(market.status).toBe(200);
      const m = (await market.json()) as { sources: { type: string }[] };
      expect(m.sources.map((s) => s.type)).toEqual(expect.arrayContaining(['demo', 'apple_health']));
      const html = await fetch(user.marketplace.url, { headers: { accept: 'text/html' } });
      expect(html.headers.get('content-type')).toMatch(/text\/html/);
      mobile = new RecordingClient(platform.baseUrl, user.mobile.token, log);
    });

    it('a notification target and a stream (client connected) are set up before any data', async () => {
      const target = await api.put(`/organizations/${org}/notification_target`, { url: receiver.url, secret });
      expect(target.status).toBe(200);
      expect((await api.get(`/organizations/${org}/notification_target`)).body).toMatchObject({ url: receiver.url });
      const s = await api.post('/streams', { name: 'acceptance' });
      expect(s.status).toBe(201);
      expect(s.body).toMatchObject({ name: 'acceptance', members: 0, resource_filter: [] });
      streamId = s.body.id;
      stream = await connectSse(`${platform.baseUrl}/streams/${streamId}/connect?token=${tenant.token}`);
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // A second stream that only wants rule events: its client sees nothing but pokes.
      const quiet = await api.post('/streams', { name: 'acceptance-quiet', event_type_filter: ['rule'] });
      expect(quiet.status).toBe(201);
      expect(quiet.body.event_type_filter).toEqual(['rule']);
      pokeStream = await connectSse(`${platform.baseUrl}/streams/${quiet.body.id}/connect?token=${tenant.token}`);
      await eventually(async () => (await api.get(`/streams/${streamId}`)).body.members === 1);
    });

    it('connecting demo through the marketplace API shows in sources and emits a connection event', async () => {
      const res = await fetch(`${user.marketplace.url}/sources/demo/connect`, { method: 'POST', headers: { accept: 'application/json' } });
      expect(res.status).toBe(200);
      const got = await api.get(`${users()}/${uid}`);
      expect(got.body.sources).toEqual([{ type: 'demo', connected_at: expect.any(String), status: 'active', last_synced_at: null, backfill: null }]);
      const ev = await stream.waitFor((e) => e.event === 'connection', 20_000);
      expect(ev.id).toEqual(expect.any(String));
      const p = ev.json();
      expect(p).toMatchObject({ user: { uid, user_id: user.id, organization_id: org }, source: { type: 'demo' }, action: 'connected', created_at: expect.any(String) });
    });

    it('demo records appear on REST (summaries, sleep, measurements) and as data events', async () => {
      const q = `?start_date=${isoDay(-2)}&end_date=${isoDay(0)}`;
      for (const kind of ['summaries', 'sleep', 'measurements']) {
        const res = await eventually(async () => {
          const r = await api.get(`${users()}/${uid}/${kind}${q}`);
          return r.status === 200 && r.body.data.length > 0 ? r : undefined;
        }, 20_000);
        for (const rec of res.body.data) {
          expect(rec).toMatchObject({ id: expect.any(String), version: '1.0', checksum: expect.any(String), source: { type: 'demo' }, user: { uid, user_id: user.id } });
        }
      }
      const data = await stream.waitFor((e) => e.event === 'data' && e.json().source?.type === 'demo', 20_000);
      expect(data.id).toEqual(expect.any(String));
    });

    it('a mobile record: utc_offset from the time zone, served by REST, on the stream once, pushed signed', async () => {
      const start = `${isoDay(-1)}T09:00:00Z`;
      const record = {
        type: 'measurement',
        source: { type: 'apple_health', device: { name: 'Scale', type: 'scale' } },
        log_id: `weight-${uid}`,
        start_time: start,
        end_time: start,
        metrics: [{ type: 'body_weight', unit: 'kg', value: 71.5, origin: 'device' }],
      };
      const res = await mobile.post('/mobile/records', { records: [record] });
      expect(res.status).toBe(200);
      posted = res.body.data[0];
      expect(posted).toMatchObject({
        id: expect.any(String),
        type: 'measurement',
        version: '1.0',
        checksum: expect.any(String),
        log_id: record.log_id,
        utc_offset: offsetOf(zone, start),
        offset_origin: 'profile',
        user: { uid, user_id: user.id, organization_id: org },
        source: { type: 'apple_health' },
        created_at: expect.any(String),
      });
      const rest = await api.get(`${users()}/${uid}/measurements?start_date=${isoDay(-1)}&end_date=${isoDay(0)}`);
      expect(rest.body.data.find((r: any) => r.id === posted.id)).toMatchObject({ checksum: posted.checksum, utc_offset: posted.utc_offset });
      const ev = await stream.waitFor((e) => e.event === 'data' && e.json().id === posted.id, 15_000);
      expect(ev.id).toEqual(expect.any(String));
      expect(ev.json()).toMatchObject({ id: posted.id, checksum: posted.checksum });

      // Identical content again: 200, same record, nothing new on the stream.
      const again = await mobile.post('/mobile/records', { records: [record] });
      expect(again.status).toBe(200);
      expect(again.body.data[0]).toMatchObject({ id: posted.id, checksum: posted.checksum });
      await sleep(1500);
      expect(stream.events.filter((e) => e.event === 'data' && e.json().id === posted.id)).toHaveLength(1);

      // The push receiver gets a signed batch with the record.
      const push = await eventually(async () => receiver.received.find((p) => p.body.items.some((i) => i.id === posted.id)), 20_000);
      const ts = String(push.headers['x-wellstream-timestamp']);
      expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(120);
      expect(push.headers['x-wellstream-batch-id']).toBe(push.body.id);
      expect(push.headers['x-wellstream-signature']).toBe(`sha256=${createHmac('sha256', secret).update(`${ts}.${push.raw}`).digest('hex')}`);

      // Status endpoints: the batch is SUCCESS with attempts; the detail lists its items.
      const listed = await eventually(async () => {
        const r = await api.get(`/organizations/${org}/notifications?status=success`);
        return r.body.data?.find((b: any) => b.id === push.body.id);
      }, 10_000);
      expect(listed).toMatchObject({ status: 'SUCCESS', attempts: { first_at: expect.any(String), last_at: expect.any(String), count: 1 } });
      const detail = await api.get(`/organizations/${org}/notifications/${push.body.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ id: push.body.id, status: 'SUCCESS', attempts: { start_at: expect.any(String), last_at: expect.any(String) } });
      expect(detail.body.attempts.details[0]).toMatchObject({ transmitted_at: expect.any(String), response: { code: 200, body: 'ok' } });
      expect(detail.body.items.map((i: any) => i.id)).toContain(posted.id);
    });

    it('replay with event_types=data and date=today delivers the record', async () => {
      const replay = await connectSse(`${platform.baseUrl}/replay?token=${tenant.token}&event_types=data&date=${isoDay(0)}`);
      try {
        expect(replay.status).toBe(200);
        await replay.waitFor((e) => e.event === 'data' && e.json().id === posted.id, 20_000);
        expect(replay.events.some((e) => e.event === 'connection')).toBe(false);
      } finally {
        replay.close();
      }
    });

    it('poke payload: {"ts","stream","members":{"count","max"}}', async () => {
      const poke = await pokeStream.waitFor((e) => e.event === 'poke', 12_000);
      const p = poke.json();
      expect(Object.keys(p).sort()).toEqual(['members', 'stream', 'ts']);
      expect(p).toEqual({ ts: expect.any(String), stream: expect.any(String), members: { count: 1, max: expect.any(Number) } });
      expect(Number.isNaN(Date.parse(p.ts))).toBe(false);
      expect(pokeStream.events.every((e) => e.event === 'poke')).toBe(true);
    });

    it('an invalid record is 400 {"errors":{field:[...]}} and nothing of the request is stored', async () => {
      const day = isoDay(0);
      const good = { type: 'measurement', source: { type: 'apple_health' }, log_id: `good-${uid}`, start_time: `${day}T00:10:00Z`, end_time: `${day}T00:10:00Z`, metrics: [{ type: 'body_weight', unit: 'kg', value: 70 }] };
      const bad = { ...good, log_id: `bad-${uid}`, metrics: [{ type: 'body_weight', unit: 'kg', value: 'heavy' }] };
      const res = await mobile.post('/mobile/records', { records: [good, bad] });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining([expect.stringMatching(/^records\[1\]\.metrics\[0\]\.value$/)]));
      for (const v of Object.values(res.body.errors)) expect(v).toEqual(expect.arrayContaining([expect.any(String)]));
      const rest = await api.get(`${users()}/${uid}/measurements?start_date=${isoDay(-1)}&end_date=${isoDay(1)}`);
      expect(rest.body.data.map((r: any) => r.log_id)).not.toContain(good.log_id);
    });

    it('"deleted": true sets deleted_at, emits a data event, and the record leaves REST', async () => {
      const res = await mobile.post('/mobile/records', { records: [{ type: 'measurement', source: { type: 'apple_health' }, log_id: posted.log_id, deleted: true }] });
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ id: posted.id, deleted_at: expect.any(String) });
      const ev = await stream.waitFor((e) => e.event === 'data' && e.json().id === posted.id && !!e.json().deleted_at, 15_000);
      expect(ev.id).toEqual(expect.any(String));
      const rest = await api.get(`${users()}/${uid}/measurements?start_date=${isoDay(-1)}&end_date=${isoDay(0)}`);
      expect(rest.body.data.map((r: any) => r.id)).not.toContain(posted.id);
    });

    it('deleting the user: deleted_at, then REST 404, marketplace 404, mobile token 401', async () => {
      const del = await api.delete(`${users()}/${uid}`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ uid, deleted_at: expect.any(String) });
      expect((await api.get(`${users()}/${uid}`)).status).toBe(404);
      await eventually(async () => (await api.get(`${users()}/${uid}/summaries`)).status === 404, 10_000);
      const rest = await api.get(`${users()}/${uid}/summaries`);
      expect(rest.body).toEqual({ errors: [expect.any(String)] });
      const market = await fetch(user.marketplace.url, { headers: { accept: 'application/json' } });
      expect(market.status).toBe(404);
      await eventually(async () => (await mobile.post('/mobile/records', { records: [] })).status === 401, 10_000);
    });

    it('every REST answer with the developer token carries the rate-limit headers; no body has a stack', () => {
      const rest = log.filter((l) => l.res.status !== 0 && !l.path.startsWith('/mobile') && !l.path.startsWith('/admin'));
      expect(rest.length).toBeGreaterThan(10);
      for (const { method, path, res } of rest) {
        const h = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((n) => res.headers.get(n));
        expect({ method, path, h: h.every((v) => v !== null && /^\d+$/.test(v)) }).toEqual({ method, path, h: true });
      }
      for (const { res } of log) {
        expect(res.status).toBeLessThan(500);
        expect(res.text).not.toMatch(STACK);
      }
    });
  });
}
