/**
 * The Suunto adapter against the Suunto simulator over real HTTP (fetchProviderHttp): consent and
 * code exchange, the subscription key on every data call, refresh rotation and a revoked grant,
 * syncs whose records pass ingestion and match the simulator's own counts, garbage, 429 and 5xx
 * answers as their ProviderError kinds, the deauthorization, and signed (and forged) webhooks.
 */
import { kindOf, settingsFrom, startWebhookReceiver, syncAll as syncSpan } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { ProviderNotification, ProviderSettings, TokenSet } from '../provider.port';
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { SuuntoSimulator } from './simulator/suunto-simulator';
import { suuntoAdapter } from './suunto.adapter';

const DAY = 86_400_000;
const http = fetchProviderHttp({ timeoutMs: 10_000 });
const sim = new SuuntoSimulator();
let receiver: { url: string; close(): Promise<void> };
let settings: ProviderSettings;
const received: ProviderNotification[] = [];

beforeAll(async () => {
  await sim.start();
  receiver = await startWebhookReceiver('suunto', (inbound) => {
    received.push(...suuntoAdapter.parseNotification!(settings, inbound));
    return { status: 200 };
  });
  const env = sim.env();
  settings = { ...settingsFrom(env, 'suunto', receiver.url), extra: { SUBSCRIPTION_KEY: env.WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY, NOTIFICATION_SECRET: env.WELLSTREAM_SOURCE_SUUNTO_NOTIFICATION_SECRET } };
});

afterAll(async () => {
  await sim.stop();
  await receiver.close();
});

async function connect(days = 7, now = new Date()) {
  const user = sim.createUser({ days, now });
  const redirect = new URL(sim.authorize(suuntoAdapter.authorizeUrl(settings, { state: 'state-0001' }), user, 'allow'));
  expect(redirect.searchParams.get('state')).toBe('state-0001');
  const tokens = await suuntoAdapter.exchangeCode(http, settings, { code: redirect.searchParams.get('code')! }, now);
  return { user, tokens, now };
}

const syncAll = (tokens: TokenSet, resource: string, from: Date, to: Date) => syncSpan({ adapter: suuntoAdapter, http, settings }, tokens.accessToken, resource, from, to);

describe('Suunto adapter against the Suunto simulator', () => {
  it('connects: consent, code exchange with the username and a refresh token; a reused code is refused', async () => {
    const { user, tokens } = await connect();
    expect(tokens.providerUserId).toBe(user.providerUserId);
    expect(tokens.refreshToken).toBeTruthy();
    expect(Date.parse(tokens.expiresAt)).toBeGreaterThan(Date.now() + 3600_000);
    const code = new URL(sim.authorize(suuntoAdapter.authorizeUrl(settings, { state: 's-2' }), user, 'allow')).searchParams.get('code')!;
    await suuntoAdapter.exchangeCode(http, settings, { code }, new Date());
    expect(await kindOf(suuntoAdapter.exchangeCode(http, settings, { code }, new Date()))).toMatchObject({ kind: 'bad_request', providerCode: 'invalid_grant' });
  });

  it('reads every resource of a 30-day backfill, matching the simulator and passing ingestion', async () => {
    const now = new Date();
    const { user, tokens } = await connect(32, now);
    const from = new Date(now.getTime() - 30 * DAY);
    const expected = sim.expectedCounts(user, new Date(from.getTime() + DAY), new Date(now.getTime() - DAY));
    const byType: Record<string, Set<string>> = {};
    for (const r of suuntoAdapter.resources) {
      const { records } = await syncAll(tokens, r.name, from, now);
      assertIngestible(records);
      // Whole UTC days are read, so a day at a window's edge comes twice: the same record (log_id).
      for (const rec of records) if (Date.parse(rec.start_time) >= from.getTime() + DAY && Date.parse(rec.start_time) < now.getTime() - DAY) (byType[rec.type] ??= new Set()).add(rec.log_id);
    }
    expect(Object.fromEntries(Object.entries(byType).map(([t, ids]) => [t, ids.size]))).toEqual(expected);
  });

  it('sends the subscription key on every data call: without it Suunto refuses', async () => {
    const { tokens } = await connect(2);
    const noKey = { ...settings, extra: {} };
    expect(await kindOf(suuntoAdapter.fetchWindow(http, noKey, tokens.accessToken, 'sleep', { start: new Date(Date.now() - DAY), end: new Date() }, { userTimezone: null }))).toMatchObject({ kind: 'bad_request' });
    const wrongKey = { ...settings, extra: { SUBSCRIPTION_KEY: 'wrong' } };
    // The gateway's 401 for the key is our configuration, not the user's token: never read as a
    // refused token (a refused token after a refresh expires the connection).
    expect(await kindOf(suuntoAdapter.fetchWindow(http, wrongKey, tokens.accessToken, 'sleep', { start: new Date(Date.now() - DAY), end: new Date() }, { userTimezone: null }))).toMatchObject({ kind: 'temporary', status: 401 });
  });

  it('refreshes with rotation, and reads a revoked grant as auth_revoked', async () => {
    const { user, tokens } = await connect(2);
    sim.expireAccessTokens(user);
    const window = { start: new Date(Date.now() - DAY), end: new Date() };
    expect(await kindOf(suuntoAdapter.fetchWindow(http, settings, tokens.accessToken, 'activity', window, { userTimezone: null }))).toMatchObject({ kind: 'auth_invalid' });
    const next = await suuntoAdapter.refresh(http, settings, tokens, new Date());
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.providerUserId).toBe(user.providerUserId);
    await suuntoAdapter.fetchWindow(http, settings, next.accessToken, 'activity', window, { userTimezone: null });
    expect(await kindOf(suuntoAdapter.refresh(http, settings, tokens, new Date()))).toMatchObject({ kind: 'auth_revoked' });
    sim.revokeGrant(user);
    expect(await kindOf(suuntoAdapter.refresh(http, settings, next, new Date()))).toMatchObject({ kind: 'auth_revoked', providerCode: 'invalid_grant' });
  });

  it('reads garbage as bad_response, a 429 with its Retry-After, a 503 as temporary', async () => {
    const { tokens } = await connect(2);
    const call = () => suuntoAdapter.fetchWindow(http, settings, tokens.accessToken, 'workouts', { start: new Date(Date.now() - 2 * DAY), end: new Date() }, { userTimezone: null });
    sim.failNext(1, 'garbage');
    expect(await kindOf(call())).toMatchObject({ kind: 'bad_response' });
    sim.failNext(1, 429, 7);
    expect(await kindOf(call())).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000 });
    sim.failNext(1, 503);
    expect(await kindOf(call())).toMatchObject({ kind: 'temporary', status: 503 });
    await call();
  });

  it('deauthorizes on disconnect (refreshing an expired token first); a grant already gone is done', async () => {
    const { user, tokens } = await connect(1);
    sim.expireAccessTokens(user);
    await suuntoAdapter.revoke!(http, settings, tokens);
    expect(sim.stats(user).revokes).toBe(1);
    await suuntoAdapter.revoke!(http, settings, tokens);
    expect(sim.stats(user).revokes).toBe(1);
  });

  it('takes signed notifications: a new workout by its key, 24/7 sleep by its window; refuses a forged one', async () => {
    const { user, tokens } = await connect(2);
    const [key] = sim.addData(user, 'workouts', new Date(Date.now() - 3 * 3600_000));
    received.length = 0;
    expect(await sim.notify(receiver.url, user, 'workouts')).toBe(200);
    expect(received).toEqual([{ providerUserId: user.providerUserId, resource: 'workouts', objectId: key }]);
    const [record] = await suuntoAdapter.fetchObject!(http, settings, tokens.accessToken, 'workouts', key, { userTimezone: null });
    expect(record).toMatchObject({ type: 'workout', log_id: key });
    expect(await suuntoAdapter.fetchObject!(http, settings, tokens.accessToken, 'workouts', 'aaaaaaaaaaaaaaaaaaaaaaaa', { userTimezone: null })).toEqual([]);
    sim.addData(user, 'sleep', new Date());
    received.length = 0;
    expect(await sim.notify(receiver.url, user, 'sleep')).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ resource: 'sleep', window: { start: expect.any(Date), end: expect.any(Date) } });
    received.length = 0;
    expect(await sim.notifyForged(receiver.url, user, 'workouts')).toBe(401);
    expect(received).toEqual([]);
  });
});
