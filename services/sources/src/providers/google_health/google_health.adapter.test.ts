/**
 * The Google Health adapter against its simulator over real HTTP (fetchProviderHttp): consent with
 * PKCE and offline access, the code exchange, refresh keeping the refresh token, `invalid_grant`,
 * revoke, the user id, paged syncs whose records pass ingestion and match the simulator's counts,
 * Google's failures as typed errors, and the subscriber verification and notifications received by a
 * small webhook endpoint answering as the service's route does.
 */
import { createHash } from 'node:crypto';
import { kindOf, settingsFrom, startWebhookReceiver, syncAll as syncSpan } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { ProviderNotification, ProviderSettings, TokenSet } from '../provider.port';
// The module itself, not @wellstream/testing's index (which starts a whole platform to import).
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { MemoryProviderBudgetStore } from '../budget/provider-budget.memory';
import { PROVIDER_DEFAULTS } from '../provider-defaults';
import { RateLimitedHttp } from '../rate-limited-http';
import { googleHealthAdapter as adapter } from './google_health.adapter';
import { webhookAuthorization } from './google-health-webhooks';
import { GoogleHealthSimulator } from './simulator/google-health-simulator';

const DAY = 86_400_000;
const http = fetchProviderHttp({ timeoutMs: 10_000 });
const sim = new GoogleHealthSimulator({ subscriberSecret: webhookAuthorization, heartRateEveryS: 60 });
let receiver: { url: string; close(): Promise<void> };
let settings: ProviderSettings;
const received: ProviderNotification[] = [];

beforeAll(async () => {
  await sim.start();
  // As the service's webhook route: a POST the handshake claims is answered by it, else parsed.
  receiver = await startWebhookReceiver('google_health', (inbound) => {
    const answer = adapter.handshake!(settings, inbound, 'unused');
    if (answer) return { status: answer.status, body: JSON.stringify(answer.body ?? {}) };
    received.push(...adapter.parseNotification!(settings, inbound));
    return { status: 200, body: '{"status":"ok"}' };
  });
  settings = settingsFrom(sim.env(), 'google_health', receiver.url);
});

afterAll(async () => {
  await sim.stop();
  await receiver.close();
});

const verifier = 'pkce-verifier-'.padEnd(60, 'x');
const challenge = createHash('sha256').update(verifier).digest('base64url');

async function connect(days = 7, now = new Date()) {
  const user = sim.createUser({ days, now });
  const url = adapter.authorizeUrl(settings, { state: 'state-123456', codeChallenge: challenge });
  const redirect = new URL(sim.authorize(url, user, 'allow'));
  expect(redirect.searchParams.get('state')).toBe('state-123456');
  const tokens = await adapter.exchangeCode(http, settings, { code: redirect.searchParams.get('code')!, codeVerifier: verifier }, now);
  return { user, tokens, now };
}

const syncAll = (tokens: TokenSet, resource: string, from: Date, to: Date) => syncSpan({ adapter, http, settings }, tokens.accessToken, resource, from, to);

describe('Google Health adapter against its simulator', () => {
  it('connects with PKCE and offline access; the identity is the healthUserId; a wrong verifier is refused', async () => {
    const { user, tokens } = await connect();
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.scope?.split(' ')).toHaveLength(3);
    expect(await adapter.fetchProviderUserId!(http, settings, tokens.accessToken)).toBe(user.providerUserId);
    const other = sim.createUser({ days: 1, now: new Date() });
    const code = new URL(sim.authorize(adapter.authorizeUrl(settings, { state: 'state-abcdefgh', codeChallenge: challenge }), other, 'allow')).searchParams.get('code')!;
    expect(await kindOf(adapter.exchangeCode(http, settings, { code, codeVerifier: 'wrong' }, new Date()))).toMatchObject({ kind: 'bad_request' });
    expect(new URL(sim.authorize(adapter.authorizeUrl(settings, { state: 'state-abcdefgh' }), other, 'deny')).searchParams.get('error')).toBe('access_denied');
  });

  it('refreshes keeping the refresh token; a revoked grant is auth_revoked; revoke ends the grant', async () => {
    const { user, tokens } = await connect();
    sim.expireAccessTokens(user);
    expect(await kindOf(adapter.fetchWindow(http, settings, tokens.accessToken, 'exercise', { start: new Date(Date.now() - DAY), end: new Date() }, { userTimezone: null }))).toMatchObject({ kind: 'auth_invalid', status: 401 });
    const fresh = await adapter.refresh(http, settings, tokens, new Date());
    expect(fresh.refreshToken).toBe(tokens.refreshToken);
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    const before = sim.stats(user).revokes;
    await adapter.revoke!(http, settings, fresh);
    expect(sim.stats(user).revokes).toBe(before + 1);
    await adapter.revoke!(http, settings, fresh); // already gone: fine
    expect(await kindOf(adapter.refresh(http, settings, fresh, new Date()))).toMatchObject({ kind: 'auth_revoked', providerCode: 'invalid_grant' });
  });

  it('syncs 30 days of every data type page by page; the records are ingestible and match the simulator', async () => {
    const now = new Date();
    const { user, tokens } = await connect(32, now);
    const from = new Date(now.getTime() - 30 * DAY);
    const byType: Record<string, number> = {};
    let requests = 0;
    for (const r of adapter.resources) {
      const { records, pages } = await syncAll(tokens, r.name, from, now);
      requests += pages;
      assertIngestible(records);
      // A local day's summary is read again by the next window that touches it: it replaces itself.
      const once = new Map(records.map((rec) => [rec.log_id, rec]));
      for (const rec of once.values()) byType[rec.type] = (byType[rec.type] ?? 0) + 1;
    }
    const expected = sim.expectedCounts(user, from, now);
    expect(byType.workout).toBe(expected.workout);
    expect(byType.sleep).toBe(expected.sleep);
    // Weights and body fats exactly; the day's SpO2 is read by whole days, rounded out at both ends.
    expect(byType.measurement).toBeGreaterThanOrEqual(expected.measurement!);
    expect(byType.measurement).toBeLessThanOrEqual(expected.measurement! + 2);
    // Heart-rate days are whole UTC days: the first window's day is read whole.
    expect(byType.intraday).toBeGreaterThanOrEqual(expected.intraday!);
    // Local days, rounded out to whole days at both ends of the span.
    expect(byType.summary).toBeGreaterThanOrEqual(expected.summary!);
    expect(byType.summary).toBeLessThanOrEqual(expected.summary! + 2);
    // Far below Google's 300 requests a minute per user.
    expect(requests).toBeLessThan(80);
  });

  it('reads daily summaries from dailyRollUp and the resting heart rate: merged into one record per local day', async () => {
    const now = new Date();
    const { tokens } = await connect(20, now);
    const { records } = await syncAll(tokens, 'daily_summary', new Date(now.getTime() - 13 * DAY), now);
    assertIngestible(records);
    const day = records.find((r) => r.log_id === `daily_summary:${new Date(now.getTime() - 5 * DAY).toISOString().slice(0, 10)}`);
    expect(day).toMatchObject({ type: 'summary', category: 'daily' });
    const n = Number(day!.log_id.slice(-2));
    expect(Object.fromEntries((day as { metrics: { type: string; value: number; unit: string }[] }).metrics.map((m) => [m.type, [m.value, m.unit]]))).toEqual({
      steps: [6000 + n * 137, 'count'], distance: [4500 + n * 91, 'm'], floors_climbed: [5 + (n % 9), 'count'], active_energy_burned: [380.5 + n, 'kcal'], energy_burned: [2150.25 + n * 3, 'kcal'],
      resting_heart_rate: [52 + (n % 9), 'bpm'],
    });
    // A window longer than the 14 days Google allows total-calories is never asked for.
    expect(adapter.resources.find((r) => r.name === 'daily_summary')!.maxWindowDays).toBeLessThanOrEqual(13);
  });

  it("reads the day's SpO2 by its date: one measurement per local day, the simulator's average", async () => {
    const now = new Date();
    const { tokens } = await connect(10, now);
    const { records } = await syncAll(tokens, 'daily_oxygen_saturation', new Date(now.getTime() - 7 * DAY), now);
    assertIngestible(records);
    const day = new Date(now.getTime() - 3 * DAY).toISOString().slice(0, 10);
    const n = Number(day.slice(8, 10));
    expect(records.find((r) => r.log_id === `daily_oxygen_saturation:${day}`)).toMatchObject({
      type: 'measurement', start_time: `${day}T00:00:00Z`, metrics: [{ type: 'oxygen_saturation', unit: 'percent', value: 95 + (n % 4) / 2, origin: 'device' }],
    });
  });

  it('turns garbage, 429, 503 and a refused filter into typed errors', async () => {
    const { tokens } = await connect(2);
    const window = { start: new Date(Date.now() - DAY), end: new Date() };
    const fetch = () => adapter.fetchWindow(http, settings, tokens.accessToken, 'sleep', window, { userTimezone: null });
    sim.failNext(1, 'garbage');
    expect(await kindOf(fetch())).toMatchObject({ kind: 'bad_response' });
    sim.failNext(1, 429, 7);
    expect(await kindOf(fetch())).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000 });
    sim.failNext(1, 503);
    expect(await kindOf(fetch())).toMatchObject({ kind: 'temporary' });
    expect(await kindOf(adapter.fetchWindow(http, settings, tokens.accessToken, 'steps', window, { userTimezone: null }))).toMatchObject({ kind: 'bad_request' });
  });

  it('passes Google\'s subscriber verification and reads its notifications; a forged one is 401', async () => {
    expect(await sim.verifySubscriber(receiver.url)).toEqual([201, 401]);
    const { user } = await connect(1);
    sim.addData(user, 'exercise', new Date());
    received.length = 0;
    expect(await sim.notify(receiver.url, user, 'exercise')).toBe(200);
    expect(received).toEqual([expect.objectContaining({ providerUserId: user.providerUserId, resource: 'exercise', window: expect.any(Object) })]);
    expect(await sim.notifyForged(receiver.url, user, 'exercise')).toBe(401);
    expect(received).toHaveLength(1);
  });

  it('keeps Google\'s 300 requests a minute per user: the budget refuses the 301st before Google answers 429', async () => {
    // Both count epoch-aligned minutes: start early enough in one that 301 requests end in it.
    if (Date.now() % 60_000 > 45_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 100));
    const { tokens } = await connect(1);
    const { tokens: other } = await connect(1);
    const budget = new RateLimitedHttp(http, new MemoryProviderBudgetStore(), { key: 'google_health', windows: PROVIDER_DEFAULTS.google_health.rateLimits, userWindows: PROVIDER_DEFAULTS.google_health.userRateLimits, fallbackWaitMs: 60_000 });
    const identity = (h: typeof http, t: TokenSet) => adapter.fetchProviderUserId!(h, settings, t.accessToken);
    // Live work may spend 95 % of the user's minute (285), a call a person waits on all 300.
    for (let i = 0; i < 285; i++) await identity(budget.for('conn-1', 'live'), tokens);
    expect(await kindOf(identity(budget.for('conn-1', 'live'), tokens))).toMatchObject({ kind: 'rate_limited' });
    for (let i = 0; i < 15; i++) await identity(budget.interactive('conn-1'), tokens);
    expect(await kindOf(identity(budget.interactive('conn-1'), tokens))).toMatchObject({ kind: 'rate_limited' });
    // Another connection is not held back by this one's minute.
    await identity(budget.for('conn-2', 'live'), other);
    // Without the budget, Google's own answer to the 301st: 429 RESOURCE_EXHAUSTED.
    expect(await kindOf(identity(http, tokens))).toMatchObject({ kind: 'rate_limited', status: 429 });
  });
});
