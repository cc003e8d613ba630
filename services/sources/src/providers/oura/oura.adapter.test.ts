/**
 * The Oura adapter against the Oura simulator over real HTTP (fetchProviderHttp): consent and code
 * exchange, refresh rotation, every documented failure, paginated syncs whose records pass ingestion
 * and match the simulator's own counts, webhook subscriptions with their verification GET, and
 * signed (and forged) notifications received by a small webhook endpoint driven by the adapter.
 */
import { kindOf, settingsFrom, startWebhookReceiver, syncAll as syncSpan } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { ouraAdapter } from './oura.adapter';
import { ProviderNotification, ProviderSettings, TokenSet } from '../provider.port';
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { OuraSimulator } from './simulator/oura-simulator';

const DAY = 86_400_000;
const http = fetchProviderHttp({ timeoutMs: 10_000 });
const sim = new OuraSimulator();
let receiver: { url: string; close(): Promise<void> };
let settings: ProviderSettings;
let verificationToken = 'vt-' + Math.random().toString(36).slice(2);
const received: ProviderNotification[] = [];

/** Our webhook URL, answering with the adapter exactly as the service will. */
const startReceiver = () =>
  startWebhookReceiver('oura', (inbound) => {
    if (inbound.method === 'GET') {
      const answer = ouraAdapter.handshake!(settings, inbound, verificationToken) ?? { status: 404 };
      return { status: answer.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer.body ?? {}) };
    }
    received.push(...ouraAdapter.parseNotification!(settings, inbound));
    return { status: 200, body: 'OK' };
  });

beforeAll(async () => {
  await sim.start();
  receiver = await startReceiver();
  settings = settingsFrom(sim.env(), 'oura', receiver.url);
});

afterAll(async () => {
  await sim.stop();
  await receiver.close();
});

async function connect(days = 7, now = new Date()) {
  const user = sim.createUser({ days, now });
  const redirect = new URL(sim.authorize(ouraAdapter.authorizeUrl(settings, { state: 'st-1' }), user, 'allow'));
  expect(redirect.searchParams.get('state')).toBe('st-1');
  const tokens = await ouraAdapter.exchangeCode(http, settings, { code: redirect.searchParams.get('code')! }, now);
  return { user, tokens, now };
}

/** Every record of `resource` over [from, to), window by window and page by page, as the service will. */
const syncAll = (tokens: TokenSet, resource: string, from: Date, to: Date) => syncSpan({ adapter: ouraAdapter, http, settings }, tokens.accessToken, resource, from, to);

describe('Oura adapter against the Oura simulator', () => {
  it('connects: consent, code exchange, the user id; a denied consent redirects with access_denied', async () => {
    const { user, tokens } = await connect();
    expect(tokens.refreshToken).toBeTruthy();
    expect(await ouraAdapter.fetchProviderUserId!(http, settings, tokens.accessToken)).toBe(user.providerUserId);
    expect(sim.stats(user).tokenExchanges).toBe(1);
    const denied = new URL(sim.authorize(ouraAdapter.authorizeUrl(settings, { state: 'st-2' }), user, 'deny'));
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: 'access_denied', state: 'st-2' });
    // A code is single use: the second exchange is refused (bad_request, the user consents again).
    const again = new URL(sim.authorize(ouraAdapter.authorizeUrl(settings, { state: 's' }), user, 'allow')).searchParams.get('code')!;
    await ouraAdapter.exchangeCode(http, settings, { code: again }, new Date());
    expect(await kindOf(ouraAdapter.exchangeCode(http, settings, { code: again }, new Date()))).toMatchObject({ kind: 'bad_request', providerCode: 'invalid_grant' });
  });

  it('shows a browser consent page with Allow and Deny', async () => {
    const { user } = await connect(1);
    sim.setBrowserUser(user);
    const url = ouraAdapter.authorizeUrl(settings, { state: 'browser' });
    const page = await fetch(url);
    const html = await page.text();
    expect(html).toContain('Allow');
    expect(html).toContain('Deny');
    const allow = await fetch(new URL('/oauth/authorize', sim.url), { method: 'POST', body: new URLSearchParams({ authorize_url: url, decision: 'allow' }), redirect: 'manual' });
    expect(allow.status).toBe(302);
    expect(new URL(allow.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('syncs every resource across pages; records pass ingestion and match the simulator counts', async () => {
    const { user, tokens, now } = await connect(7);
    const from = new Date(Math.floor((now.getTime() - 8 * DAY) / DAY) * DAY);
    const to = new Date(Math.ceil(now.getTime() / DAY) * DAY + DAY);
    const expected = sim.expectedCounts(user, from, to);
    const counted: Record<string, number> = {};
    for (const resource of ouraAdapter.resources.map((r) => r.name)) {
      const { records, pages } = await syncAll(tokens, resource, from, to);
      // One 30-day window holds 9-10 activity days: more than one 5-document page.
      if (resource === 'daily_activity') expect(pages).toBeGreaterThan(1);
      expect(new Set(records.map((r) => r.log_id)).size).toBe(records.length);
      for (let i = 0; i < records.length; i += 1000) assertIngestible(records.slice(i, i + 1000));
      for (const r of records) counted[r.type] = (counted[r.type] ?? 0) + 1;
    }
    expect(counted).toEqual(expected);
    expect(expected.summary).toBeGreaterThanOrEqual(7);
    expect(expected.intraday).toBeGreaterThanOrEqual(7);
  });

  it('rotates refresh tokens: the new pair works, the old refresh token is invalid_grant → auth_revoked', async () => {
    const { user, tokens, now } = await connect(1);
    const next = await ouraAdapter.refresh(http, settings, tokens, now);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(await ouraAdapter.fetchProviderUserId!(http, settings, next.accessToken)).toBe(user.providerUserId);
    expect(await kindOf(ouraAdapter.refresh(http, settings, tokens, now))).toMatchObject({ kind: 'auth_revoked', providerCode: 'invalid_grant' });
    expect(sim.stats(user).refreshes).toBe(2);
  });

  it('answers auth_invalid for an expired token, then works after a refresh; a revoked grant is auth_revoked', async () => {
    const { user, tokens, now } = await connect(1);
    const window = { start: new Date(now.getTime() - DAY), end: now };
    sim.expireAccessTokens(user);
    expect(await kindOf(ouraAdapter.fetchWindow(http, settings, tokens.accessToken, 'sleep', window, { userTimezone: null }))).toMatchObject({ kind: 'auth_invalid', status: 401 });
    const fresh = await ouraAdapter.refresh(http, settings, tokens, now);
    await expect(ouraAdapter.fetchWindow(http, settings, fresh.accessToken, 'sleep', window, { userTimezone: null })).resolves.toBeDefined();
    sim.revokeGrant(user);
    expect(await kindOf(ouraAdapter.refresh(http, settings, fresh, now))).toMatchObject({ kind: 'auth_revoked' });
  });

  it('maps 429 with Retry-After, 5xx and garbage', async () => {
    const { tokens, now } = await connect(1);
    const fetchOnce = () => ouraAdapter.fetchWindow(http, settings, tokens.accessToken, 'daily_activity', { start: new Date(now.getTime() - DAY), end: now }, { userTimezone: null });
    sim.failNext(1, 429, 7);
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000 });
    sim.failNext(1, 503);
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'temporary', status: 503 });
    sim.failNext(1, 'garbage');
    expect(await kindOf(fetchOnce())).toMatchObject({ kind: 'bad_response' });
    sim.failNext(1, 'garbage');
    expect(await kindOf(ouraAdapter.fetchWindow(http, settings, tokens.accessToken, 'heartrate', { start: new Date(now.getTime() - DAY), end: now }, { userTimezone: null }))).toMatchObject({ kind: 'bad_response' });
    await expect(fetchOnce()).resolves.toBeDefined();
  });

  it('creates subscriptions through the verification handshake, lists, renews and removes them', async () => {
    const subs = ouraAdapter.appSubscriptions!;
    for (const want of subs.wanted()) await subs.create(http, settings, want, verificationToken);
    expect(sim.subscriptions().map((s) => s.key).sort()).toEqual(subs.wanted().map((w) => w.key).sort());
    expect(sim.subscriptions().every((s) => s.callbackUrl === settings.webhookUrl)).toBe(true);
    const listed = await subs.list(http, settings);
    expect(listed).toHaveLength(9);
    const renewed = await subs.renew(http, settings, listed[0]);
    expect(Date.parse(renewed.expiresAt!)).toBeGreaterThanOrEqual(Date.parse(listed[0].expiresAt!));
    await subs.remove(http, settings, listed[0]);
    await subs.remove(http, settings, listed[0]); // already gone: fine
    expect(await subs.list(http, settings)).toHaveLength(8);
    expect(await kindOf(subs.renew(http, settings, listed[0]))).toMatchObject({ kind: 'bad_response', status: 403 });
    // Our endpoint refuses a handshake with another token, so Oura refuses the subscription.
    const saved = verificationToken;
    verificationToken = 'a-different-token';
    expect(await kindOf(subs.create(http, settings, { key: 'sleep:create' }, saved))).toMatchObject({ kind: 'bad_response', status: 400 });
    verificationToken = saved;
  });

  it('receives a signed notification, fetches the changed object, and refuses a forged one', async () => {
    const { user, tokens, now } = await connect(2);
    const [logId] = sim.addData(user, 'sleep', now);
    received.length = 0;
    expect(await sim.notify(settings.webhookUrl, user, 'sleep')).toBe(200);
    expect(received).toEqual([{ providerUserId: user.providerUserId, resource: 'sleep', objectId: logId }]);
    const { records } = await syncAll(tokens, 'sleep', new Date(now.getTime() - DAY), new Date(now.getTime() + DAY));
    expect(records.map((r) => r.log_id)).toContain(logId);
    expect(await sim.notifyForged!(settings.webhookUrl, user, 'sleep')).toBe(401);
    expect(received).toHaveLength(1);
  });

  it('revokes at Oura', async () => {
    const { user, tokens, now } = await connect(1);
    await ouraAdapter.revoke!(http, settings, tokens);
    expect(sim.stats(user).revokes).toBe(1);
    expect(await kindOf(ouraAdapter.refresh(http, settings, tokens, now))).toMatchObject({ kind: 'auth_revoked' });
  });
});
