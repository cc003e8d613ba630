/**
 * The Dexcom adapter against the Dexcom simulator over real HTTP (fetchProviderHttp): OAuth,
 * token rotation and revocation, every failure kind, and a 30-day sync whose records all pass
 * ingestion's validation and match what the simulator's data should map to.
 */
// ingest-validation directly: @wellstream/testing's index starts a whole platform on import.
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { settingsFrom } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { dexcomAdapter } from './dexcom.adapter';
import { IngestRecord, ProviderError, ProviderSettings, TokenSet } from '../provider.port';
import type { ProviderSimulator } from '../../../test/simulators/provider-simulator';
import { DexcomSimulator } from './simulator/dexcom-simulator';

const DAY = 86400_000;
const http = fetchProviderHttp({ timeoutMs: 5000 });
const sim = new DexcomSimulator();
let settings: ProviderSettings;
// Not on a whole hour, so window edges fall inside hours.
const now = new Date('2025-02-06T10:17:23Z');
const ctx = { userTimezone: null };

beforeAll(async () => {
  await sim.start();
  settings = settingsFrom(sim.env(), 'dexcom', 'https://wellstream.example/v2/sources/dexcom/webhook');
});
afterAll(() => sim.stop());

async function connect(days = 2): Promise<{ user: ReturnType<DexcomSimulator['createUser']>; tokens: TokenSet }> {
  const user = sim.createUser({ days, now });
  const back = new URL(sim.authorize(dexcomAdapter.authorizeUrl(settings, { state: 'st-1' }), user, 'allow'));
  expect(back.searchParams.get('state')).toBe('st-1');
  const tokens = await dexcomAdapter.exchangeCode(http, settings, { code: back.searchParams.get('code')! }, new Date());
  return { user, tokens };
}

const kindOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof ProviderError ? e.kind : `not a ProviderError: ${String(e)}`),
  );
const lastDay = () => ({ start: new Date(now.getTime() - DAY), end: now });

/** Every page of every chunk of [start, end), chunks of `chunkDays`, following nextCursor. */
async function sync(accessToken: string, resource: string, start: Date, end: Date, chunkDays: number): Promise<{ records: IngestRecord[]; calls: number }> {
  const records: IngestRecord[] = [];
  let calls = 0;
  for (let s = start.getTime(); s < end.getTime(); s += chunkDays * DAY) {
    const window = { start: new Date(s), end: new Date(Math.min(end.getTime(), s + chunkDays * DAY)) };
    let cursor: string | undefined;
    do {
      const page = await dexcomAdapter.fetchWindow(http, settings, accessToken, resource, { ...window, cursor }, ctx);
      calls++;
      records.push(...page.records);
      cursor = page.nextCursor;
    } while (cursor);
  }
  return { records, calls };
}

function ingestible(records: IngestRecord[]): void {
  for (let i = 0; i < records.length; i += 1000) assertIngestible(records.slice(i, i + 1000));
}

describe('Dexcom adapter against the simulator', () => {
  it('exchanges a code, and reads the provider user id', async () => {
    const { user, tokens } = await connect();
    expect(tokens.accessToken).toBeTruthy();
    expect(tokens.refreshToken).toBeTruthy();
    expect(Date.parse(tokens.expiresAt) - Date.now()).toBeGreaterThan(7000 * 1000);
    expect(await dexcomAdapter.fetchProviderUserId!(http, settings, tokens.accessToken)).toBe(user.providerUserId);
    expect(sim.stats(user)).toMatchObject({ tokenExchanges: 1, refreshes: 0, revokes: 0, dataRequests: 1 });
  });

  it('sends a denying user back with error=access_denied, and refuses a used code', async () => {
    const user = sim.createUser({ days: 1, now });
    const url = dexcomAdapter.authorizeUrl(settings, { state: 'st-2' });
    expect(Object.fromEntries(new URL(sim.authorize(url, user, 'deny')).searchParams)).toEqual({ error: 'access_denied', state: 'st-2' });
    const code = new URL(sim.authorize(url, user, 'allow')).searchParams.get('code')!;
    await dexcomAdapter.exchangeCode(http, settings, { code }, new Date());
    expect(await kindOf(dexcomAdapter.exchangeCode(http, settings, { code }, new Date()))).toBe('auth_revoked');
    expect(() => sim.authorize(url.replace('offline_access', 'egvs'), user, 'allow')).toThrow(/scope/);
  });

  it('serves the consent page to a browser, whose Allow button redirects with a code', async () => {
    const { user } = await connect();
    sim.setBrowserUser(user);
    const url = dexcomAdapter.authorizeUrl(settings, { state: 'st-3' });
    const page = await fetch(url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toMatch(/Allow/);
    expect(html).toMatch(/Deny/);
    const form = new URLSearchParams({ authorize_url: url, user: user.providerUserId, decision: 'allow' });
    const res = await fetch(`${sim.url}/v2/oauth2/login`, { method: 'POST', body: form, redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(settings.redirectUri);
    expect(location.searchParams.get('code')).toBeTruthy();
  });

  it('rotates refresh tokens: the new one works, the old one is invalid_grant → auth_revoked', async () => {
    const { user, tokens } = await connect();
    const next = await dexcomAdapter.refresh(http, settings, tokens, new Date());
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(await kindOf(dexcomAdapter.refresh(http, settings, tokens, new Date()))).toBe('auth_revoked');
    const third = await dexcomAdapter.refresh(http, settings, next, new Date());
    expect((await dexcomAdapter.fetchWindow(http, settings, third.accessToken, 'egvs', lastDay(), ctx)).records.length).toBeGreaterThan(20);
    expect(sim.stats(user).refreshes).toBe(2);
  });

  it('a revoked grant: data calls answer 401 (auth_invalid) and the refresh auth_revoked', async () => {
    const { user, tokens } = await connect();
    sim.revokeGrant(user);
    expect(await kindOf(dexcomAdapter.fetchWindow(http, settings, tokens.accessToken, 'egvs', lastDay(), ctx))).toBe('auth_invalid');
    expect(await kindOf(dexcomAdapter.refresh(http, settings, tokens, new Date()))).toBe('auth_revoked');
  });

  it('an expired access token is auth_invalid; one refresh later the call goes through', async () => {
    const { user, tokens } = await connect();
    sim.expireAccessTokens(user);
    expect(await kindOf(dexcomAdapter.fetchWindow(http, settings, tokens.accessToken, 'calibrations', lastDay(), ctx))).toBe('auth_invalid');
    const fresh = await dexcomAdapter.refresh(http, settings, tokens, new Date());
    expect(await kindOf(dexcomAdapter.fetchWindow(http, settings, fresh.accessToken, 'calibrations', lastDay(), ctx))).toBe('resolved');
  });

  it('429 → rate_limited with Retry-After in ms, 5xx → temporary, garbage → bad_response', async () => {
    const { tokens } = await connect();
    const fetchOnce = () => dexcomAdapter.fetchWindow(http, settings, tokens.accessToken, 'egvs', lastDay(), ctx);
    sim.failNext(1, 429, 7);
    await expect(fetchOnce()).rejects.toMatchObject({ kind: 'rate_limited', details: { status: 429, retryAfterMs: 7000 } });
    sim.failNext(2, 503);
    expect(await kindOf(fetchOnce())).toBe('temporary');
    expect(await kindOf(fetchOnce())).toBe('temporary');
    sim.failNext(1, 500);
    expect(await kindOf(fetchOnce())).toBe('temporary');
    sim.failNext(1, 'garbage');
    expect(await kindOf(fetchOnce())).toBe('bad_response');
    expect(await kindOf(fetchOnce())).toBe('resolved');
  });

  it('the simulator answers the documented 400 for a window over 30 days, and for a zoned date', async () => {
    const { tokens } = await connect();
    const get = (q: string) => http.send({ method: 'GET', url: `${settings.apiUrl}/v3/users/self/egvs?${q}`, headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect((await get('startDate=2025-01-01T00:00:00&endDate=2025-01-31T00:00:01')).status).toBe(400);
    expect((await get('startDate=2025-01-01T00:00:00Z&endDate=2025-01-02T00:00:00Z')).status).toBe(400);
    expect((await get('startDate=2025-01-01T00:00:00&endDate=2025-01-31T00:00:00')).status).toBe(200);
  });

  it.each([
    ['one chunk of maxWindowDays', 30],
    ['7-day chunks with edges inside hours', 7],
  ])('syncs 30 days of both resources (%s): ingestible, no duplicate, counts as expected', async (_, chunkDays) => {
    const { user, tokens } = await connect(31);
    const start = new Date(now.getTime() - 30 * DAY);
    for (const resource of dexcomAdapter.resources) {
      expect(resource.maxWindowDays).toBeLessThanOrEqual(30);
      const { records } = await sync(tokens.accessToken, resource.name, start, now, Math.min(chunkDays, resource.maxWindowDays));
      ingestible(records);
      expect(new Set(records.map((r) => r.log_id)).size).toBe(records.length);
      const expected = sim.expectedCounts(user, start, now);
      for (const type of resource.recordTypes) expect(records.filter((r) => r.type === type).length).toBe(expected[type]);
    }
    const expected = sim.expectedCounts(user, start, now);
    expect(expected.cgm).toBe(30 * 24); // one record per hour: the seeded user has a reading every 5 minutes
    expect(expected.measurement).toBeGreaterThanOrEqual(8); // about two calibrations a week
  });

  it('splits a window longer than Dexcom accepts with nextCursor, each request within 30 days', async () => {
    const { user, tokens } = await connect(40);
    const start = new Date(now.getTime() - 40 * DAY);
    const { records, calls } = await sync(tokens.accessToken, 'egvs', start, now, 40);
    expect(calls).toBe(2);
    expect(records.length).toBe(sim.expectedCounts(user, start, now).cgm);
    ingestible(records);
  });

  it('new data updates its hour on re-fetch instead of adding a record', async () => {
    const { user, tokens } = await connect(1);
    const window = { start: new Date(now.getTime() - 3 * 3600_000), end: new Date(now.getTime() + 3600_000) };
    const before = (await dexcomAdapter.fetchWindow(http, settings, tokens.accessToken, 'egvs', window, ctx)).records;
    const [logId] = sim.addData(user, 'egvs', new Date(now.getTime() + 60_000));
    const after = (await dexcomAdapter.fetchWindow(http, settings, tokens.accessToken, 'egvs', window, ctx)).records;
    expect(after.map((r) => r.log_id)).toEqual(before.map((r) => r.log_id));
    const samples = (r: IngestRecord | undefined) => (r?.metrics as unknown as { samples: unknown[] }[] | undefined)?.[0].samples.length ?? 0;
    expect(samples(after.find((r) => r.log_id === logId))).toBe(samples(before.find((r) => r.log_id === logId)) + 1);
    const [calId] = sim.addData(user, 'calibrations', new Date(now.getTime() - 60_000));
    const cals = (await dexcomAdapter.fetchWindow(http, settings, tokens.accessToken, 'calibrations', window, ctx)).records;
    expect(cals.map((r) => r.log_id)).toContain(calId);
    ingestible([...after, ...cals]);
  });

  it('has no notifications or subscriptions (Dexcom is polling only)', () => {
    const asSuiteSeesIt: ProviderSimulator = sim;
    expect(asSuiteSeesIt.notify).toBeUndefined();
    expect(asSuiteSeesIt.notifyForged).toBeUndefined();
    expect(sim.subscriptions()).toEqual([]);
  });
});
