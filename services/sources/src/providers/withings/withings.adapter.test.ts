/**
 * The Withings adapter against the Withings simulator over real HTTP (fetchProviderHttp): OAuth
 * with refresh rotation, every failure family, paginated syncs whose records pass ingestion's own
 * validation and match the simulator's expected counts, notify subscriptions with the callback
 * check, and notifications received by a small webhook server that uses the adapter as the
 * service would (2xx for unknown users, 400 for malformed bodies).
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { assertIngestible } from '@wellstream/testing';
import { settingsFrom, syncAll as syncSpan } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { IngestRecord, ProviderError, ProviderNotification, ProviderSettings, TokenSet } from '../provider.port';
import { withingsAdapter } from './withings.adapter';
import { WithingsSimulator } from './simulator/withings-simulator';

const http = fetchProviderHttp({ timeoutMs: 5000 });
const sim = new WithingsSimulator();
const NOW = new Date();
const DAY_MS = 86_400_000;
let settings: ProviderSettings;
let webhook: Server;
const received: ProviderNotification[][] = [];
const knownUsers = new Set<string>();

async function connect(days = 20): Promise<{ user: { providerUserId: string }; tokens: TokenSet }> {
  const user = sim.createUser({ days, now: NOW });
  knownUsers.add(user.providerUserId);
  const redirect = new URL(sim.authorize(withingsAdapter.authorizeUrl(settings, { state: 'st' }), user, 'allow'));
  expect(redirect.searchParams.get('state')).toBe('st');
  const tokens = await withingsAdapter.exchangeCode(http, settings, { code: redirect.searchParams.get('code')! }, new Date());
  return { user, tokens };
}

const syncAll = (resource: string, token: string, from: Date, to: Date) => syncSpan({ adapter: withingsAdapter, http, settings }, token, resource, from, to);

const kindOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: ProviderError) => e.kind);

beforeAll(async () => {
  await sim.start();
  // The service's webhook, reduced to what the adapter decides: handshake, parse, 2xx for unknown users.
  webhook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c)).on('end', () => {
      const inbound = { method: req.method as 'GET' | 'HEAD' | 'POST', query: {}, headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), rawBody: Buffer.concat(chunks) };
      const shake = withingsAdapter.handshake!(settings, inbound, '');
      if (shake) return res.writeHead(shake.status).end();
      try {
        const parsed = withingsAdapter.parseNotification!(settings, inbound);
        received.push(parsed.filter((n) => knownUsers.has(n.providerUserId)));
        res.writeHead(200).end();
      } catch (err) {
        res.writeHead((err as ProviderError).kind === 'bad_request' ? 400 : 500).end();
      }
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  settings = settingsFrom(sim.env(), 'withings', `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/v2/sources/withings/webhook`);
});

afterAll(async () => {
  await sim.stop();
  await new Promise((r) => webhook.close(r));
});

describe('Withings adapter against the simulator', () => {
  it('exchanges a code for tokens carrying the Withings userid', async () => {
    const { user, tokens } = await connect();
    expect(tokens.providerUserId).toBe(user.providerUserId);
    expect(new Date(tokens.expiresAt).getTime()).toBeGreaterThan(Date.now() + 3 * 3600_000 - 60_000);
    expect(sim.stats(user)).toMatchObject({ tokenExchanges: 1, refreshes: 0 });
    // The code works once.
    const deny = new URL(sim.authorize(withingsAdapter.authorizeUrl(settings, { state: 'x' }), user, 'deny'));
    expect(deny.searchParams.get('error')).toBe('access_denied');
  });

  it('shows an Allow/Deny page to a browser and redirects with a code on Allow', async () => {
    const { user } = await connect(1);
    sim.setBrowserUser(user);
    const url = withingsAdapter.authorizeUrl(settings, { state: 'b' });
    const page = await (await fetch(url)).text();
    expect(page).toContain('Allow');
    expect(page).toContain('Deny');
    const res = await fetch(`${sim.url}/oauth2_user/authorize2`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ authorize_url: url, decision: 'allow' }) });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('rotates refresh tokens: the old one is refused once the new access token is used', async () => {
    const { user, tokens } = await connect(2);
    const next = await withingsAdapter.refresh(http, settings, tokens, new Date());
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.providerUserId).toBe(user.providerUserId);
    await withingsAdapter.fetchWindow(http, settings, next.accessToken, 'getmeas', { start: new Date(NOW.getTime() - DAY_MS), end: NOW }, { userTimezone: null });
    expect(await kindOf(withingsAdapter.refresh(http, settings, tokens, new Date()))).toBe('auth_revoked');
    expect(await kindOf(withingsAdapter.refresh(http, settings, next, new Date()))).toBe('resolved');
  });

  it('an expired access token is auth_invalid; a revoked grant makes the refresh auth_revoked', async () => {
    const { user, tokens } = await connect(2);
    sim.expireAccessTokens(user);
    const window = { start: new Date(NOW.getTime() - DAY_MS), end: NOW };
    expect(await kindOf(withingsAdapter.fetchWindow(http, settings, tokens.accessToken, 'getsummary', window, { userTimezone: null }))).toBe('auth_invalid');
    const fresh = await withingsAdapter.refresh(http, settings, tokens, new Date());
    expect(await kindOf(withingsAdapter.fetchWindow(http, settings, fresh.accessToken, 'getsummary', window, { userTimezone: null }))).toBe('resolved');
    sim.revokeGrant(user);
    expect(await kindOf(withingsAdapter.refresh(http, settings, fresh, new Date()))).toBe('auth_revoked');
  });

  it('maps HTTP 429, 5xx, garbage and status-in-200 errors to the port kinds', async () => {
    const { tokens } = await connect(2);
    const call = () => withingsAdapter.fetchWindow(http, settings, tokens.accessToken, 'getactivity', { start: new Date(NOW.getTime() - DAY_MS), end: NOW }, { userTimezone: null });
    sim.failNext(1, 429, 3);
    await expect(call()).rejects.toMatchObject({ kind: 'rate_limited', details: { retryAfterMs: 3000 } });
    sim.failNext(1, 503);
    await expect(call()).rejects.toMatchObject({ kind: 'temporary', details: { status: 503 } });
    sim.failNext(1, 'garbage');
    await expect(call()).rejects.toMatchObject({ kind: 'bad_response' });
    sim.failNextWithStatus(1, 601, 'Too many request');
    await expect(call()).rejects.toMatchObject({ kind: 'rate_limited', details: { providerCode: 601, retryAfterMs: 60_000 } });
    sim.failNextWithStatus(1, 522, 'Timeout');
    await expect(call()).rejects.toMatchObject({ kind: 'temporary', details: { providerCode: 522 } });
    sim.failNextWithStatus(1, 401, 'invalid_token');
    await expect(call()).rejects.toMatchObject({ kind: 'auth_invalid' });
    sim.failNextWithStatus(1, 2555, 'Unauthorized');
    await expect(call()).rejects.toMatchObject({ kind: 'consent_missing' });
    await expect(call()).resolves.toMatchObject({ records: expect.any(Array) });
  });

  it('syncs every resource page by page: records pass ingestion and match the expected counts', async () => {
    const { user, tokens } = await connect(20);
    const from = new Date(Math.floor(NOW.getTime() / DAY_MS) * DAY_MS - 20 * DAY_MS);
    const to = new Date(Math.ceil(NOW.getTime() / DAY_MS) * DAY_MS);
    const before = sim.stats(user).dataRequests;
    const counts: Record<string, number> = {};
    const all: IngestRecord[] = [];
    let measurePages = 0;
    for (const spec of withingsAdapter.resources) {
      const { records, pages } = await syncAll(spec.name, tokens.accessToken, from, to);
      if (spec.name === 'getmeas') measurePages = pages;
      for (const r of records) counts[r.type] = (counts[r.type] ?? 0) + 1;
      expect(new Set(records.map((r) => r.log_id)).size).toBe(records.length);
      all.push(...records);
    }
    expect(measurePages).toBeGreaterThan(1);
    expect(counts).toEqual(sim.expectedCounts(user, from, to));
    expect(Object.values(counts).every((n) => n > 0)).toBe(true);
    for (let i = 0; i < all.length; i += 500) assertIngestible(all.slice(i, i + 500));
    expect(all.filter((r) => r.type !== 'intraday').every((r) => r.utc_offset === 3600 || r.utc_offset === 7200)).toBe(true);
    expect(sim.stats(user).dataRequests - before).toBeGreaterThan(withingsAdapter.resources.length);
  });

  it('subscribes per appli after the callback check, delivers notifications, and unsubscribes', async () => {
    const { user, tokens } = await connect(3);
    await withingsAdapter.userSubscriptions!.subscribe(http, settings, tokens.accessToken);
    const mine = sim.subscriptions().filter((s) => s.key.startsWith(`${user.providerUserId}:`));
    expect(mine.map((s) => s.key.split(':')[1]).sort()).toEqual(['1', '16', '4', '44']);
    expect(mine.every((s) => s.callbackUrl === settings.webhookUrl)).toBe(true);

    const [logId] = sim.addData(user, 'getmeas', new Date(NOW.getTime() - 60_000));
    received.length = 0;
    expect(await sim.notify!(settings.webhookUrl, user, 'getmeas')).toBe(200);
    const [note] = received[0];
    expect(note).toMatchObject({ providerUserId: user.providerUserId, resource: 'getmeas' });
    const page = await syncAll('getmeas', tokens.accessToken, note.window!.start, note.window!.end);
    expect(page.records.map((r) => r.log_id)).toContain(logId);

    received.length = 0;
    expect(await sim.notifyForged!(settings.webhookUrl, user, 'getsummary')).toBe(200);
    expect(received).toEqual([[]]); // parsed, but for no user we know: nothing fetched
    const malformed = await fetch(settings.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'appli=1&startdate=soon' });
    expect(malformed.status).toBe(400);

    await withingsAdapter.userSubscriptions!.unsubscribe(http, settings, tokens.accessToken);
    expect(sim.subscriptions().filter((s) => s.key.startsWith(`${user.providerUserId}:`))).toEqual([]);
  });

  it('a callback URL that does not answer makes the subscription fail', async () => {
    const { tokens } = await connect(1);
    const dead = { ...settings, webhookUrl: 'http://127.0.0.1:9/nowhere' };
    await expect(withingsAdapter.userSubscriptions!.subscribe(http, dead, tokens.accessToken)).rejects.toMatchObject({ kind: 'bad_response', details: { providerCode: 293 } });
  });

  it('revokes with a signed nonce: the grant is gone and the subscriptions with it', async () => {
    const { user, tokens } = await connect(1);
    await withingsAdapter.userSubscriptions!.subscribe(http, settings, tokens.accessToken);
    await withingsAdapter.revoke!(http, settings, tokens);
    expect(sim.stats(user).revokes).toBe(1);
    expect(sim.subscriptions().filter((s) => s.key.startsWith(`${user.providerUserId}:`))).toEqual([]);
    expect(await kindOf(withingsAdapter.refresh(http, settings, tokens, new Date()))).toBe('auth_revoked');
  });
});
