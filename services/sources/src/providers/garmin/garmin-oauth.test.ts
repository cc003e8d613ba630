/**
 * Garmin's OAuth 2.0 with PKCE as its OAuth2 PKCE Specification shows it: the authorize URL's
 * parameters, the code grant with code_verifier and the client credentials in the form, the
 * rotating refresh, `invalid_grant` as a grant gone, the registration deleted on disconnect.
 */
import { scriptedHttp } from '../../../test/simulators/kit/scripted-http';
import { ProviderSettings } from '../provider.port';
import { garminAdapter } from './garmin.adapter';

const settings: ProviderSettings = {
  clientId: 'consumer-key',
  clientSecret: 'consumer-secret',
  authUrl: 'https://connect.garmin.com/oauth2Confirm',
  tokenUrl: 'https://diauth.garmin.com/di-oauth2-service/oauth/token',
  apiUrl: 'https://apis.garmin.com',
  redirectUri: 'https://wellstream.example/v2/sources/garmin/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/garmin/webhook',
};
const now = new Date('2026-11-01T12:00:00Z');
const answer = { access_token: 'at-1', expires_in: 86400, token_type: 'bearer', refresh_token: 'rt-1', refresh_token_expires_in: 7775998 };
const kindOf = async (p: Promise<unknown>) => p.then(() => 'no error', (e) => (e as { kind?: string }).kind);

describe('Garmin OAuth', () => {
  it('sends the user to oauth2Confirm with the S256 challenge and refuses to go without one', async () => {
    expect(garminAdapter.pkce).toBe(true);
    const url = new URL(garminAdapter.authorizeUrl(settings, { state: 's.1.m', codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' }));
    expect(url.origin + url.pathname).toBe('https://connect.garmin.com/oauth2Confirm');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code', client_id: 'consumer-key', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', redirect_uri: settings.redirectUri, state: 's.1.m',
    });
    expect(() => garminAdapter.authorizeUrl(settings, { state: 's' })).toThrow(expect.objectContaining({ kind: 'bad_request' }));
  });

  it('trades the code with its verifier and asks user/id for the user', async () => {
    const http = scriptedHttp({ body: JSON.stringify(answer) }, { body: '{"userId":"d3315b1072421d0dd7c8f6b8e1de4df8"}' });
    const tokens = await garminAdapter.exchangeCode(http, settings, { code: 'c', codeVerifier: 'v'.repeat(43) }, now);
    expect(tokens).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: '2026-11-02T12:00:00.000Z' });
    expect(http.sent[0]).toMatchObject({ method: 'POST', url: settings.tokenUrl, form: { grant_type: 'authorization_code', code: 'c', code_verifier: 'v'.repeat(43), redirect_uri: settings.redirectUri, client_id: 'consumer-key', client_secret: 'consumer-secret' } });
    expect(await garminAdapter.fetchProviderUserId!(http, settings, 'at-1')).toBe('d3315b1072421d0dd7c8f6b8e1de4df8');
    expect(http.sent[1]).toMatchObject({ method: 'GET', url: 'https://apis.garmin.com/wellness-api/rest/user/id', headers: { authorization: 'Bearer at-1' } });
    expect(await kindOf(garminAdapter.exchangeCode(scriptedHttp(), settings, { code: 'c' }, now))).toBe('bad_request');
    expect(await kindOf(garminAdapter.exchangeCode(scriptedHttp({ status: 400, body: '{"error":"invalid_grant"}' }), settings, { code: 'c', codeVerifier: 'v' }, now))).toBe('bad_request');
  });

  it('refreshes with the rotating refresh token; invalid_grant is a grant gone, a 503 only a pause', async () => {
    const held = { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: now.toISOString(), providerUserId: 'u1' };
    const http = scriptedHttp({ body: JSON.stringify({ ...answer, access_token: 'at-2', refresh_token: 'rt-2' }) });
    expect(await garminAdapter.refresh(http, settings, held, now)).toMatchObject({ accessToken: 'at-2', refreshToken: 'rt-2', providerUserId: 'u1' });
    expect(http.sent[0].form).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'rt-1', client_id: 'consumer-key', client_secret: 'consumer-secret' });
    expect(await kindOf(garminAdapter.refresh(scriptedHttp({ status: 400, body: '{"error":"invalid_grant"}' }), settings, held, now))).toBe('auth_revoked');
    expect(await kindOf(garminAdapter.refresh(scriptedHttp({ status: 503 }), settings, held, now))).toBe('temporary');
  });

  it('deletes the user registration on disconnect (204), refreshing once when the token was refused', async () => {
    const held = { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: now.toISOString() };
    const http = scriptedHttp({ status: 401 }, { body: JSON.stringify({ ...answer, access_token: 'at-2' }) }, { status: 204 });
    await garminAdapter.revoke!(http, settings, held);
    expect(http.sent.map((r) => `${r.method} ${r.url} ${r.headers?.authorization ?? ''}`)).toEqual([
      'DELETE https://apis.garmin.com/wellness-api/rest/user/registration Bearer at-1',
      `POST ${settings.tokenUrl} `,
      'DELETE https://apis.garmin.com/wellness-api/rest/user/registration Bearer at-2',
    ]);
    expect(await kindOf(garminAdapter.revoke!(scriptedHttp({ status: 503 }), settings, held))).toBe('temporary');
  });

  it('asks for history with a backfill request (202, 409 when already asked) and reads nothing on a poll', async () => {
    const window = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-10-02T00:00:00Z') };
    const http = scriptedHttp({ status: 202 }, { status: 409 });
    expect(await garminAdapter.fetchWindow(http, settings, 'at', 'sleeps', window, { userTimezone: null })).toEqual({ records: [] });
    expect(http.sent[0].url).toBe('https://apis.garmin.com/wellness-api/rest/backfill/sleeps?summaryStartTimeInSeconds=1790812800&summaryEndTimeInSeconds=1790899200');
    expect(await garminAdapter.fetchWindow(http, settings, 'at', 'sleeps', window, { userTimezone: null })).toEqual({ records: [] });
    expect(await garminAdapter.fetchWindow(http, settings, 'at', 'sleeps', window, { userTimezone: null, purpose: 'poll' })).toEqual({ records: [] });
    expect(http.sent).toHaveLength(2);
    expect(await kindOf(garminAdapter.fetchWindow(scriptedHttp({ status: 429, headers: { 'retry-after': '7' } }), settings, 'at', 'sleeps', window, { userTimezone: null }))).toBe('rate_limited');
  });

  it('reads the user\'s permissions from user/permissions with the user\'s token and names the missing ones', async () => {
    const http = scriptedHttp({ body: '["ACTIVITY_EXPORT","HISTORICAL_DATA_EXPORT","WORKOUT_IMPORT"]' }, { body: '{"permissions":["ACTIVITY_EXPORT","HEALTH_EXPORT","HISTORICAL_DATA_EXPORT"]}' }, { body: '[]' });
    expect(await garminAdapter.fetchMissingPermissions!(http, settings, 'at-1')).toEqual(['HEALTH_EXPORT']);
    expect(http.sent[0]).toEqual({ method: 'GET', url: 'https://apis.garmin.com/wellness-api/rest/user/permissions', headers: { authorization: 'Bearer at-1' } });
    expect(await garminAdapter.fetchMissingPermissions!(http, settings, 'at-1')).toEqual([]);
    expect(await garminAdapter.fetchMissingPermissions!(http, settings, 'at-1')).toEqual(['ACTIVITY_EXPORT', 'HEALTH_EXPORT', 'HISTORICAL_DATA_EXPORT']);
    for (const body of ['<html>', '{"permissions":"ALL"}', '[1]']) expect(await kindOf(garminAdapter.fetchMissingPermissions!(scriptedHttp({ body }), settings, 'at-1'))).toBe('bad_response');
    expect(await kindOf(garminAdapter.fetchMissingPermissions!(scriptedHttp({ status: 401 }), settings, 'at-1'))).toBe('auth_invalid');
  });
});
