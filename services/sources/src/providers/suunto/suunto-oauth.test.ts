/**
 * Suunto's authorization API as its pages document it: the authorize URL, the token calls with HTTP
 * Basic client authentication, the token answer (expires_in, else the JWT's `exp`; the username),
 * and what each refusal means for the connection.
 */
import { scriptedHttp } from '../../../test/simulators/kit/scripted-http';
import { isProviderError, ProviderSettings } from '../provider.port';
import { authorizeUrl, exchangeCode, readTokenAnswer, refresh, revoke } from './suunto-oauth';

const settings: ProviderSettings = {
  clientId: 'client-1', clientSecret: 'secret-1', authUrl: 'https://cloudapi-oauth.suunto.com/oauth/authorize', tokenUrl: 'https://cloudapi-oauth.suunto.com/oauth/token',
  apiUrl: 'https://cloudapi.suunto.com', redirectUri: 'https://w.example/v2/sources/suunto/callback', webhookUrl: 'https://w.example/v2/sources/suunto/webhook', extra: { SUBSCRIPTION_KEY: 'sub-key' },
};
const now = new Date('2026-11-27T12:00:00Z');
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (claims: Record<string, unknown>) => `${b64({ alg: 'RS256' })}.${b64(claims)}.sig`;

async function kind(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return isProviderError(e) ? { kind: e.kind, ...e.details } : { kind: String(e) };
  }
  return { kind: 'no error' };
}

it('sends the browser to /oauth/authorize with response_type, client_id, redirect_uri and state', () => {
  const url = new URL(authorizeUrl(settings, { state: 'st' }));
  expect(url.origin + url.pathname).toBe('https://cloudapi-oauth.suunto.com/oauth/authorize');
  expect(Object.fromEntries(url.searchParams)).toEqual({ response_type: 'code', client_id: 'client-1', redirect_uri: settings.redirectUri, state: 'st' });
});

it('trades the code with Basic client authentication and reads the username and expiry', async () => {
  const http = scriptedHttp({ body: JSON.stringify({ access_token: jwt({ user: 'jdoe' }), token_type: 'bearer', refresh_token: 'r1', expires_in: 86399, user: 'jdoe' }) });
  const tokens = await exchangeCode(http, settings, { code: 'c1' }, now);
  expect(http.sent[0]).toMatchObject({ method: 'POST', url: settings.tokenUrl, headers: { authorization: `Basic ${Buffer.from('client-1:secret-1').toString('base64')}` }, form: { grant_type: 'authorization_code', code: 'c1', redirect_uri: settings.redirectUri } });
  expect(http.sent[0].form).not.toHaveProperty('client_secret');
  expect(tokens).toMatchObject({ refreshToken: 'r1', providerUserId: 'jdoe', expiresAt: '2026-11-28T11:59:59.000Z' });
});

it('reads the expiry from the JWT exp and the user from its claim when the answer lacks them', () => {
  const exp = Math.floor(now.getTime() / 1000) + 3600;
  const t = readTokenAnswer(JSON.stringify({ access_token: jwt({ user: 'claimed', exp }), refresh_token: 'r' }), now);
  expect(t).toMatchObject({ providerUserId: 'claimed', expiresAt: new Date(exp * 1000).toISOString() });
  expect(() => readTokenAnswer(JSON.stringify({ access_token: 'opaque', refresh_token: 'r', user: 'u' }), now)).toThrow(/expires/);
  expect(() => readTokenAnswer('<html>', now)).toThrow(/not JSON/);
});

it('refreshes with rotation; keeps the old refresh token and username when the answer omits them', async () => {
  const http = scriptedHttp({ body: JSON.stringify({ access_token: 'a2', expires_in: 100 }) });
  const next = await refresh(http, settings, { accessToken: 'a1', refreshToken: 'r1', expiresAt: now.toISOString(), providerUserId: 'jdoe' }, now);
  expect(http.sent[0].form).toEqual({ grant_type: 'refresh_token', refresh_token: 'r1' });
  expect(next).toMatchObject({ accessToken: 'a2', refreshToken: 'r1', providerUserId: 'jdoe' });
});

it('reads invalid_grant on refresh as a revoked grant; 401 as our client; 503 and 429 as passing', async () => {
  const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString(), providerUserId: 'u' };
  expect(await kind(refresh(scriptedHttp({ status: 400, body: '{"error":"invalid_grant","error_description":"Invalid refresh token"}' }), settings, tokens, now))).toMatchObject({ kind: 'auth_revoked' });
  expect(await kind(refresh(scriptedHttp({ status: 401, body: '{"error":"unauthorized"}' }), settings, tokens, now))).toMatchObject({ kind: 'bad_response' });
  expect(await kind(refresh(scriptedHttp({ status: 503 }), settings, tokens, now))).toMatchObject({ kind: 'temporary' });
  expect(await kind(refresh(scriptedHttp({ status: 429, headers: { 'retry-after': '5' } }), settings, tokens, now))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 5000 });
  expect(await kind(exchangeCode(scriptedHttp({ status: 400, body: '{"error":"invalid_grant"}' }), settings, { code: 'x' }, now))).toMatchObject({ kind: 'bad_request' });
});

it('deauthorizes with the user token and the subscription key; a 5xx is retried later', async () => {
  const http = scriptedHttp({ status: 200 });
  await revoke(http, settings, { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString() });
  expect(http.sent[0]).toMatchObject({ method: 'GET', url: 'https://cloudapi-oauth.suunto.com/oauth/deauthorize?client_id=client-1', headers: { authorization: 'Bearer a', 'ocp-apim-subscription-key': 'sub-key' } });
  expect(await kind(revoke(scriptedHttp({ status: 502 }), settings, { accessToken: 'a', expiresAt: now.toISOString() }))).toMatchObject({ kind: 'temporary' });
});
