/**
 * The WHOOP adapter against the WHOOP simulator over real HTTP (fetchProviderHttp): consent and code
 * exchange, refresh rotation, every documented failure, paginated syncs whose records pass
 * ingestion and match the simulator's own counts, revocation, and signed (forged, stale and
 * deletion) webhooks received by a small endpoint driven by the adapter.
 */
import { kindOf, settingsFrom, startWebhookReceiver, syncAll as syncSpan } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { whoopAdapter } from './whoop.adapter';
import { ProviderNotification, ProviderSettings, TokenSet } from '../provider.port';
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { WhoopSimulator } from './simulator/whoop-simulator';

const DAY = 86_400_000;
const http = fetchProviderHttp({ timeoutMs: 10_000 });
const sim = new WhoopSimulator();
let receiver: { url: string; close(): Promise<void> };
let settings: ProviderSettings;
const received: ProviderNotification[] = [];
/** The `delivery` of each received notification, apart (it carries a fresh trace_id each time). */
const deliveries: ProviderNotification['delivery'][] = [];

/** Our webhook URL, answering with the adapter exactly as the service will (401 bad signature, 400 bad request). */
const startReceiver = () =>
  startWebhookReceiver('whoop', (inbound) => {
    for (const { delivery, ...n } of whoopAdapter.parseNotification!(settings, inbound)) {
      received.push(n);
      deliveries.push(delivery);
    }
    return { status: 204 };
  });

beforeAll(async () => {
  await sim.start();
  receiver = await startReceiver();
  settings = settingsFrom(sim.env(), 'whoop', receiver.url);
});

afterAll(async () => {
  await sim.stop();
  await receiver.close();
});

async function connect(days = 7, now = new Date()) {
  const user = sim.createUser({ days, now });
  const redirect = new URL(sim.authorize(whoopAdapter.authorizeUrl(settings, { state: 'state-0001' }), user, 'allow'));
  expect(redirect.searchParams.get('state')).toBe('state-0001');
  const tokens = await whoopAdapter.exchangeCode(http, settings, { code: redirect.searchParams.get('code')! }, now);
  return { user, tokens, now };
}

/** Every record of `resource` over [from, to), window by window and page by page, as the service will. */
const syncAll = (tokens: TokenSet, resource: string, from: Date, to: Date) => syncSpan({ adapter: whoopAdapter, http, settings }, tokens.accessToken, resource, from, to);

describe('WHOOP adapter against the WHOOP simulator', () => {
  it('connects: consent, code exchange with a refresh token, the user id; deny and reused codes', async () => {
    const { user, tokens } = await connect();
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.scope).toContain('offline');
    expect(await whoopAdapter.fetchProviderUserId!(http, settings, tokens.accessToken)).toBe(user.providerUserId);
    expect(sim.stats(user).tokenExchanges).toBe(1);
    const denied = new URL(sim.authorize(whoopAdapter.authorizeUrl(settings, { state: 'state-0002' }), user, 'deny'));
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('state-0002');
    const code = new URL(sim.authorize(whoopAdapter.authorizeUrl(settings, { state: 'state-0003' }), user, 'allow')).searchParams.get('code')!;
    await whoopAdapter.exchangeCode(http, settings, { code }, new Date());
    expect(await kindOf(whoopAdapter.exchangeCode(http, settings, { code }, new Date()))).toMatchObject({ kind: 'bad_request', providerCode: 'invalid_grant' });
  });

  it('shows a browser consent page with Allow and Deny', async () => {
    const { user } = await connect(1);
    sim.setBrowserUser(user);
    const url = whoopAdapter.authorizeUrl(settings, { state: 'browser-state' });
    const html = await (await fetch(url)).text();
    expect(html).toContain('Allow');
    expect(html).toContain('Deny');
    const allow = await fetch(new URL('/oauth/oauth2/auth', sim.url), { method: 'POST', body: new URLSearchParams({ authorize_url: url, decision: 'allow' }), redirect: 'manual' });
    expect(allow.status).toBe(302);
    expect(new URL(allow.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('syncs every resource across pages; records pass ingestion and match the simulator counts', async () => {
    const { user, tokens, now } = await connect(40);
    const from = new Date(Math.floor((now.getTime() - 41 * DAY) / DAY) * DAY);
    const to = new Date(Math.ceil(now.getTime() / DAY) * DAY + DAY);
    const expected = sim.expectedCounts(user, from, to);
    const counted: Record<string, number> = {};
    const before = sim.stats(user).dataRequests;
    for (const resource of whoopAdapter.resources.map((r) => r.name)) {
      const { records, pages } = await syncAll(tokens, resource, from, to);
      // 30-day windows hold about 30 cycles: more than one page of 25.
      if (resource === 'cycle') expect(pages).toBeGreaterThan(2);
      expect(new Set(records.map((r) => r.log_id)).size).toBe(records.length);
      for (let i = 0; i < records.length; i += 1000) assertIngestible(records.slice(i, i + 1000));
      for (const r of records) counted[r.type] = (counted[r.type] ?? 0) + 1;
      if (resource === 'recovery') expect(records.every((r) => r.metrics!.some((m) => m.type === 'resting_heart_rate'))).toBe(true);
    }
    expect(counted).toEqual(expected);
    expect(expected.summary).toBeGreaterThanOrEqual(2 * 38);
    expect(expected.measurement).toBe(1);
    expect(sim.stats(user).dataRequests - before).toBeLessThan(30);
  });

  it('rotates refresh tokens: the new pair works, the old refresh and access tokens do not', async () => {
    const { user, tokens, now } = await connect(1);
    const next = await whoopAdapter.refresh(http, settings, tokens, now);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(await whoopAdapter.fetchProviderUserId!(http, settings, next.accessToken)).toBe(user.providerUserId);
    expect(await kindOf(whoopAdapter.fetchProviderUserId!(http, settings, tokens.accessToken))).toMatchObject({ kind: 'auth_invalid', status: 401 });
    expect(await kindOf(whoopAdapter.refresh(http, settings, tokens, now))).toMatchObject({ kind: 'auth_revoked', providerCode: 'invalid_grant' });
    expect(sim.stats(user).refreshes).toBe(2);
  });

  it('answers auth_invalid for an expired token, then works after a refresh; a revoked grant is auth_revoked', async () => {
    const { user, tokens, now } = await connect(2);
    const window = { start: new Date(now.getTime() - 2 * DAY), end: now };
    sim.expireAccessTokens(user);
    expect(await kindOf(whoopAdapter.fetchWindow(http, settings, tokens.accessToken, 'sleep', window, { userTimezone: null }))).toMatchObject({ kind: 'auth_invalid', status: 401 });
    const fresh = await whoopAdapter.refresh(http, settings, tokens, now);
    await expect(whoopAdapter.fetchWindow(http, settings, fresh.accessToken, 'sleep', window, { userTimezone: null })).resolves.toBeDefined();
    sim.revokeGrant(user);
    expect(await kindOf(whoopAdapter.refresh(http, settings, fresh, now))).toMatchObject({ kind: 'auth_revoked', providerCode: 'invalid_grant' });
  });

  it('maps 429 with X-RateLimit-Reset, 5xx and garbage', async () => {
    const { tokens, now } = await connect(2);
    const window = { start: new Date(now.getTime() - 2 * DAY), end: now };
    const fetchOnce = (resource = 'cycle') => whoopAdapter.fetchWindow(http, settings, tokens.accessToken, resource, window, { userTimezone: null });
    sim.failNext(1, 429, 7);
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000 });
    sim.failNext(1, 503);
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'temporary', status: 503 });
    sim.failNext(1, 500);
    expect(await kindOf(fetchOnce('workout'))).toMatchObject({ kind: 'temporary', status: 500 });
    for (const resource of ['cycle', 'recovery', 'sleep', 'workout', 'body_measurement']) {
      sim.failNext(1, 'garbage');
      expect(await kindOf(fetchOnce(resource))).toMatchObject({ kind: 'bad_response' });
    }
    // The recovery's cycle lookup fails after its recovery page succeeded: still a clean kind.
    sim.failNext(2, 'garbage');
    expect(await kindOf(fetchOnce('recovery'))).toMatchObject({ kind: 'bad_response' });
    sim.failNext(0, 500);
    await expect(fetchOnce()).resolves.toBeDefined();
  });

  it('receives signed notifications and fetches the changed object; forged and stale ones are 401', async () => {
    const { user, tokens, now } = await connect(3);
    received.length = 0;
    const [sleepId] = sim.addData(user, 'sleep', now);
    expect(await sim.notify(settings.webhookUrl, user, 'sleep')).toBe(204);
    expect(received).toEqual([{ providerUserId: user.providerUserId, resource: 'sleep', objectId: sleepId }]);
    const { records } = await syncAll(tokens, 'sleep', new Date(now.getTime() - DAY), new Date(now.getTime() + DAY));
    expect(records.map((r) => r.log_id)).toContain(sleepId);

    const [recoveryLogId] = sim.addData(user, 'recovery', now);
    expect(await sim.notify(settings.webhookUrl, user, 'recovery')).toBe(204);
    expect(received[1]).toEqual({ providerUserId: user.providerUserId, resource: 'recovery', objectId: recoveryLogId.replace('recovery:', '') });
    const recoveries = await syncAll(tokens, 'recovery', new Date(now.getTime() - 3 * DAY), new Date(now.getTime() + DAY));
    expect(recoveries.records.map((r) => r.log_id)).toContain(recoveryLogId);

    const [workoutId] = sim.addData(user, 'workout', new Date(now.getTime() - 3_600_000));
    expect(await sim.notify(settings.webhookUrl, user, 'workout')).toBe(204);
    expect(received[2]).toMatchObject({ resource: 'workout', objectId: workoutId });

    expect(await sim.notifyForged(settings.webhookUrl, user, 'sleep')).toBe(401);
    // WHOOP retries for about an hour: a signed retry is good for two hours, then it is a replay.
    expect(await sim.notifyRetry(settings.webhookUrl, user, 'sleep', 2 * 3_600_000 + 60_000)).toBe(401);
    expect(await sim.notifyRetry(settings.webhookUrl, user, 'sleep', -6 * 60_000)).toBe(401);
    expect(await sim.notifyRetry(settings.webhookUrl, user, 'sleep', 10 * 60_000)).toBe(204);
    expect(received).toHaveLength(4);
    expect(received[3]).toEqual({ providerUserId: user.providerUserId, resource: 'sleep', objectId: sleepId });
    expect(deliveries[3]!.id).toMatch(/^[0-9a-f-]{36}:sleep\.updated:/);
    // The same delivery again is recognisably the same (the service drops it).
    expect(await sim.redeliver()).toBe(204);
    expect(deliveries[4]).toEqual(deliveries[3]);
  });

  it('reads the object a notification names by its id, whatever its age; a recovery through its sleep and cycle', async () => {
    const { user, tokens, now } = await connect(14);
    const read = (resource: string, id: string) => whoopAdapter.fetchObject!(http, settings, tokens.accessToken, resource, id, { userTimezone: null });
    // A workout logged eight days after it happened: one request, its record.
    const [workoutId] = sim.addData(user, 'workout', new Date(now.getTime() - 8 * DAY));
    let before = sim.stats(user).dataRequests;
    const workout = await read('workout', workoutId);
    expect(workout.map((r) => [r.type, r.log_id])).toEqual([['workout', workoutId]]);
    expect(Date.parse(workout[0].start_time)).toBeLessThan(now.getTime() - 7 * DAY);
    expect(sim.stats(user).dataRequests - before).toBe(1);
    // A sleep edited ten days later, and its recovery scored again (v2 recovery events name the sleep).
    const [sleepId, recoveryId] = sim.editData(user, 'sleep', new Date(now.getTime() - 10 * DAY));
    expect(recoveryId).toBe(`recovery:${sleepId}`);
    before = sim.stats(user).dataRequests;
    expect((await read('sleep', sleepId)).map((r) => r.log_id)).toEqual([sleepId]);
    expect(sim.stats(user).dataRequests - before).toBe(1);
    before = sim.stats(user).dataRequests;
    const recovery = await read('recovery', sleepId);
    // The sleep (for its cycle id), the cycle's recovery, the cycle (for the span): each becomes its record.
    expect(sim.stats(user).dataRequests - before).toBe(3);
    expect(recovery.map((r) => [r.type, r.log_id.startsWith('recovery:') ? r.log_id : r.type])).toEqual([['summary', recoveryId], ['sleep', 'sleep'], ['summary', 'summary']]);
    expect(recovery[0].metrics!.some((m) => m.type === 'resting_heart_rate')).toBe(true);
    assertIngestible([...workout, ...recovery]);
    // Gone at WHOOP (404): nothing, not an error; a deletion arrives as its own event.
    expect(await read('workout', '00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect(await read('recovery', '00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect(await kindOf(read('cycle', '1'))).toMatchObject({ kind: 'bad_request' });
  });

  it('turns deleted events into deletions whose log_ids are the records WHOOP deleted', async () => {
    const { user, tokens, now } = await connect(3);
    const window = [new Date(now.getTime() - 4 * DAY), new Date(now.getTime() + DAY)] as const;
    const [workoutId] = sim.addData(user, 'workout', new Date(now.getTime() - 2 * 3_600_000));
    expect((await syncAll(tokens, 'workout', ...window)).records.map((r) => r.log_id)).toContain(workoutId);
    received.length = 0;
    expect(await sim.notifyDeleted(settings.webhookUrl, user, 'workout')).toEqual([204]);
    expect(received).toEqual([{ providerUserId: user.providerUserId, resource: 'workout', objectId: workoutId, deleted: true }]);
    expect((await syncAll(tokens, 'workout', ...window)).records.map((r) => r.log_id)).not.toContain(workoutId);

    // Deleting a night's sleep deletes its recovery: two events, each naming the sleep's UUID; the
    // recovery's deletion names its own record (recovery:<UUID>), not the sleep's.
    const [recoveryLogId] = sim.addData(user, 'recovery', now);
    const sleepId = recoveryLogId.replace('recovery:', '');
    const summaries = (await syncAll(tokens, 'recovery', ...window)).records;
    const sleeps = (await syncAll(tokens, 'sleep', ...window)).records;
    expect(summaries.map((r) => r.log_id)).toContain(recoveryLogId);
    expect(sleeps.map((r) => r.log_id)).toContain(sleepId);
    received.length = 0;
    expect(await sim.notifyDeleted(settings.webhookUrl, user, 'recovery')).toEqual([204, 204]);
    expect(received).toEqual([
      { providerUserId: user.providerUserId, resource: 'sleep', objectId: sleepId, deleted: true },
      { providerUserId: user.providerUserId, resource: 'recovery', objectId: sleepId, deleted: true, deletedLogIds: [recoveryLogId] },
    ]);
    for (const n of received) {
      const spec = whoopAdapter.resources.find((r) => r.name === n.resource)!;
      // What the service posts: a stub per log_id (deletedLogIds, else objectId).
      assertIngestible((n.deletedLogIds ?? [n.objectId]).map((log_id) => ({ type: spec.recordTypes[0], source: { type: 'whoop' }, log_id, deleted: true })));
    }
    expect((await syncAll(tokens, 'recovery', ...window)).records.map((r) => r.log_id)).not.toContain(recoveryLogId);
  });

  it('revokes at WHOOP (even with an expired access token), after which no webhook is sent', async () => {
    const { user, tokens, now } = await connect(1);
    sim.expireAccessTokens(user);
    await whoopAdapter.revoke!(http, settings, tokens);
    expect(sim.stats(user).revokes).toBe(1);
    sim.addData(user, 'workout', now);
    await expect(sim.notify(settings.webhookUrl, user, 'workout')).rejects.toThrow(/revoked/);
    expect(await kindOf(whoopAdapter.fetchProviderUserId!(http, settings, tokens.accessToken))).toMatchObject({ kind: 'auth_invalid' });
    expect(sim.subscriptions()).toEqual([]);
  });
});
