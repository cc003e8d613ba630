/**
 * The Polar adapter against the Polar simulator over real HTTP (fetchProviderHttp): consent and code
 * exchange, the registration after connect (and its 409), every documented failure (401, 403
 * consents, 429, 5xx, garbage), syncs whose records pass ingestion and match the simulator's own
 * counts, the webhook created through its PING with the secret returned once, and signed (and
 * forged) notifications received by a small endpoint driven by the adapter.
 */
import { kindOf, settingsFrom, startWebhookReceiver, syncAll as syncSpan } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { polarAdapter } from './polar.adapter';
import { ProviderNotification, ProviderSettings, TokenSet } from '../provider.port';
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { PolarSimulator } from './simulator/polar-simulator';

const DAY = 86_400_000;
const http = fetchProviderHttp({ timeoutMs: 10_000 });
const sim = new PolarSimulator();
let receiver: { url: string; close(): Promise<void> };
let settings: ProviderSettings;
const secrets: string[] = [];
const received: ProviderNotification[] = [];

/** Our webhook URL, answering with the adapter exactly as the service will. */
const startReceiver = () =>
  startWebhookReceiver('polar', (inbound) => {
    received.push(...polarAdapter.parseNotification!(settings, inbound, { secrets }));
    return { status: 200, body: 'OK' };
  });

beforeAll(async () => {
  await sim.start();
  receiver = await startReceiver();
  settings = settingsFrom(sim.env(), 'polar', receiver.url);
});

afterAll(async () => {
  await sim.stop();
  await receiver.close();
});

/** Consent, code exchange and registration, as the service's connect does. */
async function connect(days = 7, now = new Date(), registeredAt?: Date) {
  const user = sim.createUser({ days, now, registeredAt });
  const redirect = new URL(sim.authorize(polarAdapter.authorizeUrl(settings, { state: 'st-1' }), user, 'allow'));
  expect(redirect.searchParams.get('state')).toBe('st-1');
  const tokens = await polarAdapter.exchangeCode(http, settings, { code: redirect.searchParams.get('code')! }, now);
  await polarAdapter.afterConnect!(http, settings, tokens);
  return { user, tokens, now };
}

const ctxOf = (tokens: TokenSet) => ({ userTimezone: null, providerUserId: tokens.providerUserId });

/** Every record of `resource` over [from, to), window by window and page by page, as the service will. */
const syncAll = async (tokens: TokenSet, resource: string, from: Date, to: Date) =>
  (await syncSpan({ adapter: polarAdapter, http, settings }, tokens.accessToken, resource, from, to, ctxOf(tokens))).records;

describe('Polar adapter against the Polar simulator', () => {
  it('connects: consent, Basic-authenticated code exchange with x_user_id, registration; a reused code is refused', async () => {
    const { user, tokens } = await connect(1);
    expect(tokens.providerUserId).toBe(user.providerUserId);
    expect(tokens.refreshToken).toBeUndefined();
    expect(Date.parse(tokens.expiresAt) - Date.now()).toBeGreaterThan(360 * DAY);
    expect(sim.isRegistered(user)).toBe(true);
    expect(sim.stats(user).tokenExchanges).toBe(1);
    // Registering again (a reconnect) is Polar's 409, which is success.
    await expect(polarAdapter.afterConnect!(http, settings, tokens)).resolves.toBeUndefined();
    const denied = new URL(sim.authorize(polarAdapter.authorizeUrl(settings, { state: 'st-2' }), user, 'deny'));
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: 'access_denied', state: 'st-2' });
    const code = new URL(sim.authorize(polarAdapter.authorizeUrl(settings, { state: 's' }), user, 'allow')).searchParams.get('code')!;
    const second = await polarAdapter.exchangeCode(http, settings, { code }, new Date());
    expect(await kindOf(polarAdapter.exchangeCode(http, settings, { code }, new Date()))).toMatchObject({ kind: 'bad_request', providerCode: 'invalid_grant' });
    // Polar deletes every token issued for a reused code.
    expect(await kindOf(polarAdapter.fetchWindow(http, settings, second.accessToken, 'sleep', { start: new Date(Date.now() - DAY), end: new Date() }, ctxOf(second)))).toMatchObject({ kind: 'auth_invalid', status: 401 });
  });

  it('shows a browser authorization page with Allow and Deny', async () => {
    const user = sim.createUser({ days: 1, now: new Date() });
    sim.setBrowserUser(user);
    const url = polarAdapter.authorizeUrl(settings, { state: 'browser' });
    const html = await (await fetch(url)).text();
    expect(html).toContain('Allow');
    expect(html).toContain('Deny');
    const allow = await fetch(new URL('/oauth2/authorization', sim.url), { method: 'POST', body: new URLSearchParams({ authorize_url: url, decision: 'allow' }), redirect: 'manual' });
    expect(allow.status).toBe(302);
    expect(new URL(allow.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('syncs every resource; records pass ingestion and match the simulator counts', async () => {
    const now = new Date();
    const { user, tokens } = await connect(10, now, new Date(now.getTime() - 20 * DAY));
    const from = new Date(Math.floor((now.getTime() - 11 * DAY) / DAY) * DAY);
    const to = new Date(Math.ceil(now.getTime() / DAY) * DAY + DAY);
    const expected = sim.expectedCounts(user, from, to);
    const counted: Record<string, number> = {};
    for (const resource of polarAdapter.resources.map((r) => r.name)) {
      const records = await syncAll(tokens, resource, from, to);
      expect(new Set(records.map((r) => r.log_id)).size).toBe(records.length);
      for (let i = 0; i < records.length; i += 1000) assertIngestible(records.slice(i, i + 1000));
      for (const r of records) counted[r.type] = (counted[r.type] ?? 0) + 1;
    }
    expect(counted).toEqual(expected);
    expect(Object.keys(expected).sort()).toEqual(['intraday', 'measurement', 'sleep', 'summary', 'workout']);
    // The physical-info transaction was committed: nothing new the second time.
    expect(await syncAll(tokens, 'physical_info', from, to)).toEqual([]);
  });

  it('fetches continuous heart rate by range, one request for 28 days; a device without it (404) is no data, not an error', async () => {
    const now = new Date();
    const { user, tokens } = await connect(28, now);
    const from = new Date(Math.floor((now.getTime() - 27 * DAY) / DAY) * DAY);
    const before = sim.stats(user).dataRequests;
    const page = await polarAdapter.fetchWindow(http, settings, tokens.accessToken, 'continuous_heart_rate', { start: from, end: now }, ctxOf(tokens));
    expect(sim.stats(user).dataRequests - before).toBe(1);
    expect(page.nextCursor).toBeUndefined();
    expect(page.records.length).toBe(sim.expectedCounts(user, from, now).intraday);
    const last = sim.requests().filter((r) => r.path.startsWith('/v3/users/continuous-heart-rate')).pop()!;
    expect(last.path).toBe('/v3/users/continuous-heart-rate');
    const noDevice = sim.createUser({ days: 28, now, continuousHeartRate: false });
    const c = new URL(sim.authorize(polarAdapter.authorizeUrl(settings, { state: 'hr' }), noDevice, 'allow')).searchParams.get('code')!;
    const t = await polarAdapter.exchangeCode(http, settings, { code: c }, now);
    await polarAdapter.afterConnect!(http, settings, t);
    expect(await polarAdapter.fetchWindow(http, settings, t.accessToken, 'continuous_heart_rate', { start: from, end: now }, ctxOf(t))).toEqual({ records: [] });
  });

  it('lists no exercise uploaded before a fresh registration', async () => {
    const now = new Date();
    const { user, tokens } = await connect(6, now);
    expect(sim.expectedCounts(user, new Date(now.getTime() - 7 * DAY), now).workout).toBeUndefined();
    expect(await syncAll(tokens, 'exercises', new Date(now.getTime() - 7 * DAY), new Date(now.getTime() + DAY))).toEqual([]);
    const [id] = sim.addData(user, 'exercises', now);
    expect((await syncAll(tokens, 'exercises', new Date(now.getTime() - 7 * DAY), new Date(now.getTime() + DAY))).map((r) => r.log_id)).toEqual([id]);
  });

  it('maps 401 to auth_invalid with no refresh, 403 consents to consent_missing, 429, 5xx and garbage', async () => {
    const { user, tokens, now } = await connect(1);
    const window = { start: new Date(now.getTime() - DAY), end: now };
    const fetchOnce = (resource = 'sleep') => polarAdapter.fetchWindow(http, settings, tokens.accessToken, resource, window, ctxOf(tokens));
    sim.failNext(1, 429, 7);
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000 });
    sim.failNext(1, 503);
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'temporary', status: 503 });
    sim.failNext(1, 'garbage');
    expect(await kindOf(fetchOnce('exercises'))).toMatchObject({ kind: 'bad_response' });
    sim.failNext(1, 'garbage');
    expect(await kindOf(fetchOnce('continuous_heart_rate'))).toMatchObject({ kind: 'bad_response' });
    sim.setConsents(user, false);
    expect(await kindOf(fetchOnce('activities'))).toMatchObject({ kind: 'consent_missing', status: 403 });
    expect(await kindOf(polarAdapter.afterConnect!(http, settings, tokens))).toMatchObject({ kind: 'consent_missing', status: 403 });
    sim.setConsents(user, true);
    await expect(fetchOnce()).resolves.toBeDefined();
    sim.expireAccessTokens(user);
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'auth_invalid', status: 401 });
    expect(await kindOf(polarAdapter.refresh(http, settings, tokens, now))).toMatchObject({ kind: 'auth_revoked' });
    expect(sim.stats(user).refreshes).toBe(0);
  });

  it('a revoked grant is refused with 401; revoke de-registers the user', async () => {
    const a = await connect(1);
    sim.revokeGrant(a.user);
    expect(await kindOf(polarAdapter.fetchWindow(http, settings, a.tokens.accessToken, 'exercises', { start: new Date(Date.now() - DAY), end: new Date() }, ctxOf(a.tokens)))).toMatchObject({ kind: 'auth_invalid' });
    const b = await connect(1);
    await polarAdapter.revoke!(http, settings, b.tokens);
    expect(sim.stats(b.user).revokes).toBe(1);
    expect(sim.isRegistered(b.user)).toBe(false);
    expect(await kindOf(polarAdapter.fetchWindow(http, settings, b.tokens.accessToken, 'sleep', { start: new Date(Date.now() - DAY), end: new Date() }, ctxOf(b.tokens)))).toMatchObject({ kind: 'auth_invalid' });
  });

  it('creates the webhook through its PING, gets the secret once, lists and replaces it', async () => {
    const subs = polarAdapter.appSubscriptions!;
    const created = await subs.create(http, settings, subs.wanted()[0], 'unused');
    expect(created.secret).toBeTruthy();
    secrets.unshift(created.secret!);
    expect(sim.subscriptions()).toEqual([{ key: subs.wanted()[0].key, callbackUrl: settings.webhookUrl }]);
    expect(await subs.list(http, settings)).toEqual([{ id: created.id, key: subs.wanted()[0].key }]);
    // Created again (a lost secret): Polar's 409, ours is replaced and a new secret comes back.
    const again = await subs.create(http, settings, subs.wanted()[0], 'unused');
    expect(again.secret).not.toBe(created.secret);
    secrets.unshift(again.secret!);
    expect(await subs.list(http, settings)).toHaveLength(1);
  });

  it('receives a signed notification, fetches the new object, and refuses a forged one', async () => {
    const now = new Date();
    const { user, tokens } = await connect(2, now);
    const [logId] = sim.addData(user, 'exercises', now);
    received.length = 0;
    expect(await sim.notify(settings.webhookUrl, user, 'exercises')).toBe(200);
    expect(received).toEqual([{ providerUserId: user.providerUserId, resource: 'exercises', objectId: logId, window: expect.anything() }]);
    const records = await syncAll(tokens, 'exercises', received[0].window!.start, received[0].window!.end);
    expect(records.map((r) => r.log_id)).toContain(logId);
    const [day] = sim.addData(user, 'continuous_heart_rate', now);
    expect(await sim.notify(settings.webhookUrl, user, 'continuous_heart_rate')).toBe(200);
    const hr = await syncAll(tokens, 'continuous_heart_rate', received[1].window!.start, received[1].window!.end);
    expect(hr.map((r) => r.log_id)).toContain(day);
    expect(await sim.notifyForged!(settings.webhookUrl, user, 'exercises')).toBe(401);
    expect(received).toHaveLength(2);
  });
});
