/**
 * The OAuth calls, the fetch paths and the status → ProviderError mapping, over a scripted
 * ProviderHttp answering as WHOOP documents (token answer `{access_token, expires_in,
 * refresh_token, scope, token_type}`, `{records, next_token}` pages, X-RateLimit-Reset on 429).
 */
import { isProviderError, ProviderResponse, ProviderSettings } from '../provider.port';
import { whoopAdapter } from './whoop.adapter';
import { scriptedHttp as scripted } from '../../../test/simulators/kit/scripted-http';

const settings: ProviderSettings = {
  clientId: 'client',
  clientSecret: 'secret',
  authUrl: 'https://api.prod.whoop.com/oauth/oauth2/auth',
  tokenUrl: 'https://api.prod.whoop.com/oauth/oauth2/token',
  apiUrl: 'https://api.prod.whoop.com/developer',
  redirectUri: 'https://wellstream.example/v2/sources/whoop/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/whoop/webhook',
};


async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return isProviderError(e) ? { kind: e.kind, ...e.details } : { kind: `not a ProviderError: ${String(e)}` };
  }
  return { kind: 'no error' };
}

const now = new Date('2024-05-01T12:00:00Z');
const tokenAnswer = JSON.stringify({ access_token: 'at-1', expires_in: 3600, refresh_token: 'rt-1', scope: 'offline read:sleep', token_type: 'bearer' });
const window = { start: new Date('2024-04-01T00:00:00Z'), end: new Date('2024-05-01T00:00:00Z') };

describe('WHOOP OAuth and fetch', () => {
  it('builds the documented authorize URL with the offline scope, without PKCE', () => {
    const url = new URL(whoopAdapter.authorizeUrl(settings, { state: 'state-123' }));
    expect(url.origin + url.pathname).toBe('https://api.prod.whoop.com/oauth/oauth2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'client',
      redirect_uri: settings.redirectUri,
      scope: 'read:recovery read:cycles read:sleep read:workout read:body_measurement read:profile offline',
      state: 'state-123',
    });
    expect(whoopAdapter.pkce).toBe(false);
    expect(() => whoopAdapter.authorizeUrl(settings, { state: 'short' })).toThrow(/8 characters/);
  });

  it('exchanges a code with the client credentials in the form', async () => {
    const http = scripted({ body: tokenAnswer });
    const tokens = await whoopAdapter.exchangeCode(http, settings, { code: 'c1' }, now);
    expect(tokens).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: '2024-05-01T13:00:00.000Z', scope: 'offline read:sleep' });
    expect(http.sent[0]).toMatchObject({ method: 'POST', url: settings.tokenUrl });
    expect(http.sent[0].form).toEqual({ grant_type: 'authorization_code', code: 'c1', redirect_uri: settings.redirectUri, client_id: 'client', client_secret: 'secret' });
    expect(await kindOf(whoopAdapter.exchangeCode(scripted({ status: 400, body: '{"error":"invalid_grant"}' }), settings, { code: 'c' }, now))).toMatchObject({ kind: 'bad_request' });
    expect(await kindOf(whoopAdapter.exchangeCode(scripted({ status: 401, body: '{"error":"invalid_client"}' }), settings, { code: 'c' }, now))).toMatchObject({ kind: 'bad_response' });
  });

  it('refreshes with scope=offline and maps failures', async () => {
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString(), providerUserId: '10129' };
    const http = scripted({ body: tokenAnswer });
    expect(await whoopAdapter.refresh(http, settings, tokens, now)).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1', providerUserId: '10129' });
    expect(http.sent[0].form).toEqual({ grant_type: 'refresh_token', refresh_token: 'r', client_id: 'client', client_secret: 'secret', scope: 'offline' });
    const refresh = (a: Partial<ProviderResponse>) => kindOf(whoopAdapter.refresh(scripted(a), settings, tokens, now));
    expect(await refresh({ status: 400, body: '{"error":"invalid_grant","error_description":"used"}' })).toMatchObject({ kind: 'auth_revoked', providerCode: 'invalid_grant' });
    expect(await refresh({ status: 401, body: '{"error":"token_inactive"}' })).toMatchObject({ kind: 'auth_revoked' });
    expect(await refresh({ status: 503, body: 'down' })).toMatchObject({ kind: 'temporary' });
    expect(await refresh({ status: 429, headers: { 'x-ratelimit-reset': '17' } })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 17_000 });
    expect(await refresh({ status: 200, body: '<html>' })).toMatchObject({ kind: 'bad_response' });
    expect(await refresh({ status: 200, body: '{"access_token":7}' })).toMatchObject({ kind: 'bad_response' });
    expect(await kindOf(whoopAdapter.refresh(scripted(), settings, { accessToken: 'a', expiresAt: now.toISOString() }, now))).toMatchObject({ kind: 'auth_revoked' });
  });

  it('reads the user id from the basic profile', async () => {
    const http = scripted({ body: '{"user_id":10129,"email":"jsmith123@whoop.com","first_name":"John","last_name":"Smith"}' });
    expect(await whoopAdapter.fetchProviderUserId!(http, settings, 'a')).toBe('10129');
    expect(http.sent[0]).toMatchObject({ method: 'GET', url: 'https://api.prod.whoop.com/developer/v2/user/profile/basic', headers: { authorization: 'Bearer a' } });
  });

  it('asks the collections with start, end, limit 25 and nextToken, and maps statuses', async () => {
    const http = scripted({ body: JSON.stringify({ records: [], next_token: 'MTIzOjEyMzEyMw' }) });
    const page = await whoopAdapter.fetchWindow(http, settings, 'a', 'sleep', { ...window, cursor: 'abc' }, { userTimezone: null });
    expect(page).toEqual({ records: [], nextCursor: 'MTIzOjEyMzEyMw' });
    const url = new URL(http.sent[0].url);
    expect(url.pathname).toBe('/developer/v2/activity/sleep');
    expect(Object.fromEntries(url.searchParams)).toEqual({ start: '2024-04-01T00:00:00.000Z', end: '2024-05-01T00:00:00.000Z', limit: '25', nextToken: 'abc' });
    const fetch = (a: Partial<ProviderResponse>, resource = 'workout') => kindOf(whoopAdapter.fetchWindow(scripted(a), settings, 'a', resource, window, { userTimezone: null }));
    expect(await fetch({ status: 401 })).toMatchObject({ kind: 'auth_invalid' });
    expect(await fetch({ status: 429, headers: { 'x-ratelimit-reset': '3' } })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 3000 });
    expect(await fetch({ status: 429 })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 60_000 });
    expect(await fetch({ status: 500 })).toMatchObject({ kind: 'temporary' });
    expect(await fetch({ status: 400 })).toMatchObject({ kind: 'bad_response' });
    expect(await fetch({ body: '{"records":"nope"}' })).toMatchObject({ kind: 'bad_response' });
    expect(await fetch({ body: '{"records":[null]}' })).toMatchObject({ kind: 'bad_response' });
    expect(await fetch({ body: '{"records":[], "next_token": 5}' }, 'cycle')).toMatchObject({ kind: 'bad_response' });
    expect(await fetch({ body: '{"records": [{"id": "trunc' }, 'recovery')).toMatchObject({ kind: 'bad_response' });
    expect(await fetch({}, 'heartrate')).toMatchObject({ kind: 'bad_request' });
    expect(await fetch({}, 'constructor')).toMatchObject({ kind: 'bad_request' });
  });

  it('times recoveries by their cycles, reading a missing cycle by id', async () => {
    const rec = (cycle_id: number, sleep_id: string) => ({ cycle_id, sleep_id, user_id: 1, created_at: '2024-04-10T08:00:00Z', updated_at: '2024-04-10T08:00:00Z', score_state: 'SCORED', score: { user_calibrating: false, recovery_score: 50, resting_heart_rate: 55, hrv_rmssd_milli: 40 } });
    const cyc = (id: number, start: string) => ({ id, user_id: 1, created_at: start, updated_at: start, start, end: '2024-04-11T23:00:00.000Z', timezone_offset: '+02:00', score_state: 'SCORED', score: { strain: 1, kilojoule: 9000, average_heart_rate: 60, max_heart_rate: 150 } });
    const http = scripted(
      { body: JSON.stringify({ records: [rec(1, 'aaaaaaaa-0000-4000-8000-000000000001'), rec(2, 'aaaaaaaa-0000-4000-8000-000000000002'), rec(3, 'aaaaaaaa-0000-4000-8000-000000000003')] }) },
      { body: JSON.stringify({ records: [cyc(1, '2024-04-10T22:00:00.000Z'), cyc(3, '2024-03-01T22:00:00.000Z')] }) },
      { body: JSON.stringify(cyc(2, '2024-04-09T22:00:00.000Z')) },
    );
    const { records } = await whoopAdapter.fetchWindow(http, settings, 'a', 'recovery', window, { userTimezone: null });
    expect(records.map((r) => [r.log_id, r.start_time, r.utc_offset])).toEqual([
      ['recovery:aaaaaaaa-0000-4000-8000-000000000001', '2024-04-10T22:00:00Z', 7200],
      ['recovery:aaaaaaaa-0000-4000-8000-000000000002', '2024-04-09T22:00:00Z', 7200],
    ]);
    expect(new URL(http.sent[0].url).searchParams.get('start')).toBe('2024-03-31T00:00:00.000Z');
    expect(new URL(http.sent[2].url).pathname).toBe('/developer/v2/cycle/2');
  });

  it('reads body measurements only for a window reaching now; 404 is none', async () => {
    const nowWindow = { start: new Date(Date.now() - 86_400_000), end: new Date(Date.now() + 60_000) };
    const body = '{"height_meter":1.8288,"weight_kilogram":90.7185,"max_heart_rate":200}';
    const http = scripted({ body });
    const { records } = await whoopAdapter.fetchWindow(http, settings, 'a', 'body_measurement', nowWindow, { userTimezone: null });
    expect(records).toHaveLength(1);
    expect(http.sent[0].url).toBe('https://api.prod.whoop.com/developer/v2/user/measurement/body');
    const past = scripted({ body });
    expect((await whoopAdapter.fetchWindow(past, settings, 'a', 'body_measurement', window, { userTimezone: null })).records).toEqual([]);
    expect(past.sent).toHaveLength(0);
    expect((await whoopAdapter.fetchWindow(scripted({ status: 404 }), settings, 'a', 'body_measurement', nowWindow, { userTimezone: null })).records).toEqual([]);
  });

  it('revokes with DELETE /v2/user/access, refreshing an expired token once', async () => {
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString() };
    const ok = scripted({ status: 204 });
    await whoopAdapter.revoke!(ok, settings, tokens);
    expect(ok.sent[0]).toMatchObject({ method: 'DELETE', url: 'https://api.prod.whoop.com/developer/v2/user/access', headers: { authorization: 'Bearer a' } });
    const expired = scripted({ status: 401 }, { body: tokenAnswer }, { status: 204 });
    await whoopAdapter.revoke!(expired, settings, tokens);
    expect(expired.sent.map((r) => r.method)).toEqual(['DELETE', 'POST', 'DELETE']);
    expect(expired.sent[2].headers).toEqual({ authorization: 'Bearer at-1' });
    await whoopAdapter.revoke!(scripted({ status: 401 }, { status: 400, body: '{"error":"invalid_grant"}' }), settings, tokens);
    expect(await kindOf(whoopAdapter.revoke!(scripted({ status: 500 }), settings, tokens))).toMatchObject({ kind: 'temporary' });
  });
});
