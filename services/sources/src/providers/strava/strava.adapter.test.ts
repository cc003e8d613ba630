/**
 * The Strava adapter against the Strava simulator over real HTTP (fetchProviderHttp): consent and
 * code exchange (the athlete id), refresh as Strava documents it (rotation, refused old and revoked
 * refresh tokens), every documented failure, paginated syncs whose records pass ingestion and match
 * the simulator's own counts, the push subscription with its hub.challenge validation, and events
 * (create, update, delete, deauthorization, forged) received by a small endpoint that answers with
 * the adapter and acts like the service (known owners only, our subscription id sealed at create);
 * a named activity read with its calories, the athlete's choices on the consent page, and the token
 * check that confirms a deauthorization.
 */
import { kindOf, settingsFrom, startWebhookReceiver, syncAll as syncSpan } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { stravaAdapter } from './strava.adapter';
import { ProviderNotification, ProviderSettings, TokenSet } from '../provider.port';
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { StravaSimulator } from './simulator/strava-simulator';

const DAY = 86_400_000;
const http = fetchProviderHttp({ timeoutMs: 10_000 });
// 25 a page whatever per_page asks: syncs cross pages, and short pages must not end them.
const sim = new StravaSimulator({ maxPerPage: 25 });
let receiver: { url: string; close(): Promise<void> };
let settings: ProviderSettings;
let verificationToken = 'vt-' + Math.random().toString(36).slice(2);
/** What the service keeps sealed from create (Strava's subscription id) and hands back to parseNotification. */
const sealedSubscriptionIds: string[] = [];
/** Provider user ids with an active connection, as the service's lookup would find them. */
const connected = new Set<string>();
const received: ProviderNotification[] = [];
const ignored: ProviderNotification[] = [];

/** Our webhook URL, answering with the adapter as the service does (GET handshake, POST events). */
const startReceiver = () =>
  startWebhookReceiver('strava', (inbound) => {
    if (inbound.method === 'GET') {
      const answer = stravaAdapter.handshake!(settings, inbound, verificationToken) ?? { status: 200, body: { status: 'ok' } };
      return { status: answer.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer.body ?? {}) };
    }
    for (const n of stravaAdapter.parseNotification!(settings, inbound, { secrets: [...sealedSubscriptionIds] })) (connected.has(n.providerUserId) ? received : ignored).push(n);
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"ok"}' };
  });

beforeAll(async () => {
  await sim.start();
  receiver = await startReceiver();
  settings = settingsFrom(sim.env(), 'strava', receiver.url);
});

afterAll(async () => {
  await sim.stop();
  await receiver.close();
});

async function connect(days = 7, now = new Date()) {
  const user = sim.createUser({ days, now });
  const redirect = new URL(sim.authorize(stravaAdapter.authorizeUrl(settings, { state: 'st-1' }), user, 'allow'));
  expect(redirect.searchParams.get('state')).toBe('st-1');
  expect(redirect.searchParams.get('scope')).toBe('activity:read_all');
  const tokens = await stravaAdapter.exchangeCode(http, settings, { code: redirect.searchParams.get('code')! }, now);
  connected.add(tokens.providerUserId!);
  return { user, tokens, now };
}

/** Every record over [from, to), window by window and page by page, as the service does. */
const syncAll = (tokens: TokenSet, from: Date, to: Date) => syncSpan({ adapter: stravaAdapter, http, settings }, tokens.accessToken, stravaAdapter.resources[0].name, from, to);

const fetchDay = (tokens: TokenSet, now: Date) => stravaAdapter.fetchWindow(http, settings, tokens.accessToken, 'activities', { start: new Date(now.getTime() - DAY), end: now }, { userTimezone: null });

describe('Strava adapter against the Strava simulator', () => {
  it('connects: consent, code exchange with the athlete id; a denied consent redirects with access_denied; a code is single use', async () => {
    const { user, tokens } = await connect();
    expect(tokens.providerUserId).toBe(user.providerUserId);
    expect(tokens.refreshToken).toBeTruthy();
    expect(Date.parse(tokens.expiresAt) - Date.now()).toBeGreaterThan(5.9 * 3600_000);
    expect(await stravaAdapter.fetchProviderUserId!(http, settings, tokens.accessToken)).toBe(user.providerUserId);
    expect(sim.stats(user).tokenExchanges).toBe(1);
    const denied = new URL(sim.authorize(stravaAdapter.authorizeUrl(settings, { state: 'st-2' }), user, 'deny'));
    expect(Object.fromEntries(denied.searchParams)).toEqual({ state: 'st-2', error: 'access_denied' });
    const again = new URL(sim.authorize(stravaAdapter.authorizeUrl(settings, { state: 's' }), user, 'allow')).searchParams.get('code')!;
    await stravaAdapter.exchangeCode(http, settings, { code: again }, new Date());
    expect(await kindOf(stravaAdapter.exchangeCode(http, settings, { code: again }, new Date()))).toMatchObject({ kind: 'bad_request', providerCode: 'AuthorizationCode:code:invalid' });
  });

  it('shows a browser consent page with Allow and Deny', async () => {
    const { user } = await connect(1);
    sim.setBrowserUser(user);
    const url = stravaAdapter.authorizeUrl(settings, { state: 'browser' });
    const html = await (await fetch(url)).text();
    expect(html).toContain('Allow');
    expect(html).toContain('Deny');
    const allow = await fetch(new URL('/oauth/authorize', sim.url), { method: 'POST', body: new URLSearchParams({ authorize_url: url, decision: 'allow' }), redirect: 'manual' });
    expect(allow.status).toBe(302);
    expect(new URL(allow.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('syncs across windows and pages; records pass ingestion and match the simulator\'s counts', async () => {
    for (const days of [40, 200]) {
      const { user, tokens, now } = await connect(days);
      const from = new Date(now.getTime() - (days + 2) * DAY);
      const to = new Date(now.getTime() + DAY);
      const { records, pages } = await syncAll(tokens, from, to);
      expect(new Set(records.map((r) => r.log_id)).size).toBe(records.length);
      for (let i = 0; i < records.length; i += 1000) assertIngestible(records.slice(i, i + 1000));
      expect({ workout: records.length }).toEqual(sim.expectedCounts(user, from, to));
      expect(records.every((r) => r.utc_offset !== undefined && /^\d+$/.test(r.log_id))).toBe(true);
      if (days === 200) {
        // Every 90-day window holds more than one 25-activity page, then the empty one that ends it.
        expect(pages).toBeGreaterThanOrEqual(Math.ceil(records.length / 25) + Math.ceil((days + 3) / 90));
        expect(records.some((r) => BigInt(r.log_id) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
      }
    }
  });

  it('refreshes as documented: the same tokens while over an hour is left, then rotation; the old refresh token is auth_revoked', async () => {
    const { user, tokens, now } = await connect(1);
    const same = await stravaAdapter.refresh(http, settings, tokens, now);
    expect(same.accessToken).toBe(tokens.accessToken);
    sim.expireAccessTokens(user);
    const next = await stravaAdapter.refresh(http, settings, same, now);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(next.providerUserId).toBe(user.providerUserId);
    await expect(fetchDay(next, now)).resolves.toBeDefined();
    expect(await kindOf(stravaAdapter.refresh(http, settings, tokens, now))).toMatchObject({ kind: 'auth_revoked', status: 400, providerCode: 'RefreshToken:refresh_token:invalid' });
    // The refused one is not counted: Strava cannot tell whose token it was once it rotated away.
    expect(sim.stats(user).refreshes).toBe(2);
  });

  it('answers auth_invalid for an expired token, works after a refresh; a revoked grant is auth_revoked', async () => {
    const { user, tokens, now } = await connect(1);
    sim.expireAccessTokens(user);
    expect(await kindOf(fetchDay(tokens, now))).toMatchObject({ kind: 'auth_invalid', status: 401 });
    const fresh = await stravaAdapter.refresh(http, settings, tokens, now);
    await expect(fetchDay(fresh, now)).resolves.toBeDefined();
    sim.revokeGrant(user);
    expect(await kindOf(stravaAdapter.refresh(http, settings, fresh, now))).toMatchObject({ kind: 'auth_revoked' });
  });

  it('maps 429 (Retry-After, else until the next quarter hour), 5xx and garbage', async () => {
    const { tokens, now } = await connect(1);
    sim.failNext(1, 429, 7);
    expect(await kindOf(fetchDay(tokens, now))).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 7000 });
    sim.failNext(1, 429);
    const limited = (await kindOf(fetchDay(tokens, now))) as { kind: string; retryAfterMs: number };
    const toQuarter = 15 * 60_000 - (Date.now() % (15 * 60_000));
    expect(limited.kind).toBe('rate_limited');
    expect(Math.abs(limited.retryAfterMs - toQuarter)).toBeLessThan(5000);
    sim.failNext(1, 503);
    expect(await kindOf(fetchDay(tokens, now))).toMatchObject({ kind: 'temporary', status: 503 });
    sim.failNext(1, 'garbage');
    expect(await kindOf(fetchDay(tokens, now))).toMatchObject({ kind: 'bad_response' });
    await expect(fetchDay(tokens, now)).resolves.toBeDefined();
  });

  it('creates the push subscription through the hub.challenge validation, lists it, refuses a second, deletes it', async () => {
    const subs = stravaAdapter.appSubscriptions!;
    // Our endpoint refuses another token's validation, so Strava refuses the subscription.
    const saved = verificationToken;
    verificationToken = 'a-different-token';
    expect(await kindOf(subs.create(http, settings, subs.wanted()[0], saved))).toMatchObject({ kind: 'bad_response', status: 400 });
    verificationToken = saved;
    const created = await subs.create(http, settings, subs.wanted()[0], verificationToken);
    expect(created.secret).toBe(created.id);
    expect(sim.subscriptions()).toEqual([{ key: created.id, callbackUrl: settings.webhookUrl }]);
    expect(await subs.list(http, settings)).toEqual([{ id: created.id, key: 'events' }]);
    expect(await subs.list(http, { ...settings, webhookUrl: 'https://elsewhere.example/hook' })).toEqual([]);
    expect(await kindOf(subs.create(http, settings, subs.wanted()[0], verificationToken))).toMatchObject({ kind: 'bad_response', providerCode: 'PushSubscription::already exists' });
    await expect(subs.renew(http, settings, created)).resolves.toEqual({ id: created.id, key: 'events' });
    await subs.remove(http, settings, created);
    await subs.remove(http, settings, created); // already gone: fine
    expect(await subs.list(http, settings)).toEqual([]);
    expect(await kindOf(subs.renew(http, settings, created))).toMatchObject({ kind: 'bad_response' });
  });

  it('receives create, update, delete and deauthorization events; refuses a forged one', async () => {
    const subs = stravaAdapter.appSubscriptions!;
    const created = await subs.create(http, settings, subs.wanted()[0], verificationToken);
    sealedSubscriptionIds.push(created.secret!);
    const { user, tokens, now } = await connect(3);
    const [logId] = sim.addData(user, 'activities', now);
    received.length = 0;

    expect(await sim.notify(settings.webhookUrl, user, 'activities')).toBe(200);
    expect(received).toEqual([{ providerUserId: user.providerUserId, resource: 'activities', objectId: logId, window: expect.any(Object) }]);
    // The service refetches the notified window with the athlete's token: the new activity is there.
    const window = received[0].window!;
    expect((await syncAll(tokens, window.start, new Date(window.end.getTime() + 60_000))).records.map((r) => r.log_id)).toContain(logId);

    expect(await sim.notifyUpdate(settings.webhookUrl, user, logId, { title: 'Messy' })).toBe(200);
    expect(received[1]).toMatchObject({ objectId: logId });
    const renamed = (await syncAll(tokens, received[1].window!.start, now)).records.find((r) => r.log_id === logId);
    expect(renamed).toMatchObject({ name: 'Messy' });

    expect(await sim.notifyDelete(settings.webhookUrl, user, logId)).toBe(200);
    expect(received[2]).toEqual({ providerUserId: user.providerUserId, resource: 'activities', objectId: logId, deleted: true });
    // The stub the service posts for it passes ingestion.
    assertIngestible([{ type: 'workout', source: { type: 'strava' }, log_id: received[2].objectId, deleted: true }]);

    // Forged: another subscription id → 401, nothing queued; an athlete we do not know → 200, ignored.
    expect(await sim.notifyForged(settings.webhookUrl, user, 'activities')).toBe(401);
    expect(await sim.notifyForged(settings.webhookUrl, user, 'activities', 'owner')).toBe(200);
    expect(received).toHaveLength(3);
    expect(ignored.at(-1)?.providerUserId).toBe('999999999');

    expect(await sim.notifyDeauthorization(settings.webhookUrl, user)).toBe(200);
    expect(received[3]).toMatchObject({ providerUserId: user.providerUserId, resource: 'activities', deauthorized: true });
    expect(await kindOf(stravaAdapter.refresh(http, settings, tokens, now))).toMatchObject({ kind: 'auth_revoked' });
    await subs.remove(http, settings, created);
  });

  it('reads a named activity with its calories; polls read recent details, history only summaries', async () => {
    const { user, tokens, now } = await connect(3);
    const [id] = sim.addData(user, 'activities', new Date(now.getTime() - 60_000));
    const [one] = await stravaAdapter.fetchObject!(http, settings, tokens.accessToken, 'activities', id, { userTimezone: null, purpose: 'live' });
    expect(one.log_id).toBe(id);
    expect(one.metrics).toContainEqual({ type: 'energy_burned', unit: 'kcal', value: sim.caloriesOf(user, id), origin: 'device' });
    expect(await stravaAdapter.fetchObject!(http, settings, tokens.accessToken, 'activities', '999', { userTimezone: null })).toEqual([]);
    const window = { start: new Date(now.getTime() - DAY), end: new Date(now.getTime() + 60_000) };
    const energyOf = (records: { metrics?: { type: string }[] }[]) => records.map((r) => r.metrics?.some((m) => m.type === 'energy_burned'));
    const polled = await stravaAdapter.fetchWindow(http, settings, tokens.accessToken, 'activities', window, { userTimezone: null, purpose: 'poll' });
    expect(energyOf(polled.records)).toContain(true);
    const history = await stravaAdapter.fetchWindow(http, settings, tokens.accessToken, 'activities', window, { userTimezone: null, purpose: 'backfill' });
    expect(energyOf(history.records).every((e) => !e)).toBe(true);
    expect(history.records.map((r) => r.log_id)).toEqual(polled.records.map((r) => r.log_id));
  });

  it('says what the athlete accepted on the consent page, and whether a token still works', async () => {
    const user = sim.createUser({ days: 1, now: new Date() });
    sim.untick(user, ['activity:read_all']);
    const partial = new URL(sim.authorize(stravaAdapter.authorizeUrl(settings, { state: 's' }), user, 'allow'));
    expect(partial.searchParams.get('scope')).toBe('activity:read');
    sim.untick(user, ['activity:read_all', 'activity:read']);
    const none = new URL(sim.authorize(stravaAdapter.authorizeUrl(settings, { state: 's' }), user, 'allow'));
    expect(none.searchParams.get('scope')).toBe('read');
    const tokens = await stravaAdapter.exchangeCode(http, settings, { code: none.searchParams.get('code')! }, new Date());
    // A token without activity access still works for GET /athlete.
    await expect(stravaAdapter.checkAccess!(http, settings, tokens.accessToken)).resolves.toBeUndefined();
    sim.revokeGrant(user);
    expect(await kindOf(stravaAdapter.checkAccess!(http, settings, tokens.accessToken))).toMatchObject({ kind: 'auth_invalid', status: 401 });
  });

  it('deauthorizes at Strava, refreshing an expired access token first', async () => {
    const { user, tokens, now } = await connect(1);
    sim.expireAccessTokens(user);
    await stravaAdapter.revoke!(http, settings, tokens);
    expect(sim.stats(user).revokes).toBe(1);
    expect(await kindOf(stravaAdapter.refresh(http, settings, tokens, now))).toMatchObject({ kind: 'auth_revoked' });
    // Revoking again: the grant is gone already, which is what we wanted.
    await expect(stravaAdapter.revoke!(http, settings, tokens)).resolves.toBeUndefined();
  });
});
