/**
 * The distributed platform in containers (podman-compose on docker-compose.yml and its podman
 * override, built by `npm run images`): the acceptance and bad-input suites through the gateway;
 * then each service's container replaced, one at a time, while a writer posts records, a stream
 * client listens (reconnecting with Last-Event-ID) and pushes are pending: every acknowledged record
 * reaches REST, replay, the stream and the push target, and callers saw 200 or 503 with Retry-After
 * only (the gateway itself: see its test); then a server stopped makes /health answer 503 naming it.
 * One platform serves the whole file; every loop is bounded in count and time.
 */
import { connectSse, createTenant, eventually, Tenant } from '@wellstream/testing';
import { startPushReceiver, PushReceiver } from '../../services/notifications/test/push-receiver';
import { ACCEPTANCE_ENV, acceptanceSuite } from '../acceptance.suite';
import { badInputSuite } from '../bad-input.suite';
import { DAY, Ingestion, ReconnectingStream } from '../steady-load';
import { ContainerPlatform, Deployable, startContainerPlatform } from './container-platform';
import { podman } from './podman';

jest.setTimeout(600_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let started: Promise<ContainerPlatform> | undefined;
const platform = () =>
  (started ??= startContainerPlatform({
    label: 'containers',
    env: { ...ACCEPTANCE_ENV, WELLSTREAM_PUSH_FLUSH_MS: '300', WELLSTREAM_PUSH_RETRY_DELAYS_MS: '500,1000,2000,4000,8000' },
  }));
/** The suites stop "their" platform when done; this one outlives them (the file's afterAll stops it). */
const shared = async () => ({ ...(await platform()), stop: async () => undefined });

afterAll(async () => {
  if (started) await (await started.catch(() => undefined))?.stop();
}, 240_000);

acceptanceSuite('containers', shared);
badInputSuite('containers', shared);

describe('rolling replacement of each container under load: nothing acknowledged is lost', () => {
  let p: ContainerPlatform;
  let tenant: Tenant;
  let uid = '';
  let receiver: PushReceiver;
  let ingestion: Ingestion;
  let stream: ReconnectingStream;
  const timings: string[] = [];

  beforeAll(async () => {
    p = await platform();
    tenant = await createTenant(p.baseUrl, { rateLimitPerHour: 100_000 });
    receiver = await startPushReceiver();
    expect((await tenant.api.put(`/organizations/${tenant.organizationId}/notification_target`, { url: receiver.url, secret: 'rolling-test-secret-0123456789' })).status).toBe(200);
    uid = `rolling-${Date.now().toString(36)}`;
    expect((await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid })).status).toBe(201);
    const user = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`);
    const created = await tenant.api.post('/streams', { name: 'rolling' });
    expect(created.status).toBe(201);
    stream = new ReconnectingStream(`${p.baseUrl}/streams/${created.body.id}/connect?token=${tenant.token}`);
    stream.start();
    ingestion = new Ingestion(p.baseUrl, user.body.mobile.token);
    expect((await ingestion.post(1)).status).toBe(200);
    ingestion.start();
    await sleep(2_000);
  });

  afterAll(async () => {
    await ingestion?.stop();
    await stream?.stop();
    await receiver?.close();
    if (timings.length) process.stdout.write(`[containers] rolling replacement:\n${timings.join('\n')}\n`);
  });

  const services: Deployable[] = ['users', 'records', 'streams', 'notifications', 'rules', 'sources'];
  it.each(services)('%s: SIGTERM drains and exits 0; callers see 200 or 503 with Retry-After', async (svc) => {
    const before = ingestion.attempts.length;
    const t0 = Date.now();
    const r = await p.replace(svc);
    // Some load after it is back too: the new container takes work.
    await eventually(async () => ingestion.between(Date.now() - 1_000, Date.now()).some((a) => a.status === 200), 30_000, 200);
    const during = ingestion.attempts.slice(before);
    const bad = during.filter((a) => !(a.status === 200 || (a.status === 503 && a.retryAfter !== undefined)));
    timings.push(`  ${svc}: stopped in ${r.stopMs} ms (exit ${r.exit}), healthy again ${r.totalMs} ms after SIGTERM; ${during.length} requests meanwhile, ${during.filter((a) => a.status === 503).length} answered 503`);
    expect(r.exit).toBe('0');
    expect(r.stopMs).toBeLessThan(30_000);
    expect(bad.map((a) => `${a.status} ${a.error ?? ''}`)).toEqual([]);
    expect(ingestion.between(t0, Date.now()).filter((a) => a.status === 200).length).toBeGreaterThan(0);
  });

  it('gateway: SIGTERM lets in-flight requests finish and exits 0; the new one takes over', async () => {
    const before = ingestion.attempts.length;
    const r = await p.replace('gateway');
    await eventually(async () => ingestion.attempts.slice(-3).every((a) => a.status === 200) && ingestion.attempts.length > before + 3, 30_000, 200);
    const during = ingestion.attempts.slice(before);
    timings.push(`  gateway: stopped in ${r.stopMs} ms (exit ${r.exit}), healthy again ${r.totalMs} ms after SIGTERM; ${during.length} requests meanwhile, ${during.filter((a) => a.status === 'error').length} refused (one gateway container: nothing listens while it is replaced)`);
    expect(r.exit).toBe('0');
    // With one gateway container nothing listens between the old one and the new one: connections
    // are refused (clients retry; a second replica behind a load balancer removes this, see the
    // Kubernetes manifests). What a gateway does answer is 200 or 503 with Retry-After.
    const answered = during.filter((a) => a.status !== 'error');
    expect(answered.filter((a) => !(a.status === 200 || (a.status === 503 && a.retryAfter !== undefined))).map((a) => `${a.status} ${a.error}`)).toEqual([]);
  });

  it('every acknowledged record reaches REST, replay, the stream and the push target', async () => {
    await sleep(2_000);
    await ingestion.stop();
    const acked = [...ingestion.acked];
    expect(acked.length).toBeGreaterThan(50);
    const missing = (have: Set<string>) => acked.filter((id) => !have.has(id));
    const rest = await eventually(async () => {
      const res = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}/measurements?start_date=${DAY}&end_date=${DAY}`);
      const have = new Set<string>((res.body.data ?? []).map((r: { id: string }) => r.id));
      return missing(have).length === 0 ? have : undefined;
    }, 60_000, 1_000).catch(() => new Set<string>());
    expect(missing(rest)).toEqual([]);
    const pushed = () => new Set(receiver.received.flatMap((r) => r.body.items.map((i) => String(i.id))));
    await eventually(async () => missing(pushed()).length === 0 && missing(stream.ids).length === 0, 120_000, 1_000).catch(() => undefined);
    expect(missing(stream.ids)).toEqual([]);
    expect(missing(pushed())).toEqual([]);
    const replay = await connectSse(`${p.baseUrl}/replay?token=${tenant.token}&event_types=data`);
    try {
      expect(replay.status).toBe(200);
      const replayed = () => new Set(replay.events.filter((e) => e.event === 'data').map((e) => String(e.json().id)));
      await eventually(async () => missing(replayed()).length === 0, 60_000, 500).catch(() => undefined);
      expect(missing(replayed())).toEqual([]);
    } finally {
      replay.close();
    }
    process.stdout.write(`[containers] ${acked.length} acknowledged records delivered everywhere; stream reconnects: ${stream.reconnects}\n`);
  });
});

describe('a server down: /health answers 503 naming it, never hangs', () => {
  it.each([
    ['mongo', 'store'],
    ['kafka', 'event_log'],
  ] as const)('%s stopped: the records service names %s; the gateway answers 503', async (server, check) => {
    const p = await platform();
    await podman(['stop', '-t', '10', p.container(server)], 60_000);
    try {
      await sleep(1_000);
      const t0 = Date.now();
      const res = await fetch(`${p.serviceUrl('records')}/health`, { signal: AbortSignal.timeout(15_000) });
      const body = (await res.json()) as { status: string; checks: Record<string, string> };
      expect(Date.now() - t0).toBeLessThan(8_000);
      expect(res.status).toBe(503);
      expect(body.checks[check]).toMatch(/down|timeout/);
      const gw = await fetch(`${p.gatewayUrl}/health`, { signal: AbortSignal.timeout(15_000) });
      expect(gw.status).toBe(503);
    } finally {
      await podman(['start', p.container(server)], 60_000);
    }
    await eventually(async () => (await fetch(`${p.gatewayUrl}/health`).catch(() => undefined))?.status === 200, 120_000, 500);
  });
});
