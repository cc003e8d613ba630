/**
 * Suunto's authorization API (apizone.suunto.com "How to start" and the Authorisation API's Token
 * operation): the authorize URL (`response_type=code`, `client_id`, `redirect_uri`; no scopes, no
 * PKCE), the code and refresh-token exchanges at `/oauth/token` with HTTP Basic client
 * authentication (RFC 7617), JWT access and refresh tokens, the user's Suunto username from the
 * token answer (`user`, also the JWT's `user` claim), and the deauthorization on disconnect.
 */
import { expiresAtAfter, tokenRefusal, withOneRefresh } from '../kit/oauth2-token';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings, TokenSet } from '../provider.port';
import { dataHeaders, failureOf } from './suunto-http';
import { badResponse, isObject, optionalNumber, optionalString, parseJson, requireObject, requireString } from './suunto-json';

export function authorizeUrl(settings: ProviderSettings, params: { state: string }): string {
  const url = new URL(settings.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('state', params.state);
  return url.toString();
}

/** "Authorization: Basic Base64(username:password)" with the client id and secret (RFC 7617). */
const basic = (settings: ProviderSettings) => ({ authorization: `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}` });

/**
 * A token request. The Token operation lists its parameters as a query string; the "How to start"
 * example posts them as a form (`curl -d grant_type=… -d code=…`), which keeps the code and the
 * refresh token out of URLs and their logs: the form is what we send.
 */
const tokenRequest = (settings: ProviderSettings, form: Record<string, string>): ProviderRequest => ({ method: 'POST', url: settings.tokenUrl, headers: basic(settings), form });

/** The claims of a JWT (its payload, base64url JSON), or undefined when the token is not one. */
export function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return isObject(claims) ? claims : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `{access_token, refresh_token, expires_in, user, …}` as a TokenSet. Suunto: "Token expiration
 * time (seconds since Unix epoch) is in the exp token attribute": `expires_in` is read when present
 * (our clock, as for every provider), else the JWT's `exp`. Refresh tokens rotate: an answer
 * without one keeps the previous. The username (`user`, else the JWT's `user` claim) is what
 * Suunto's webhooks carry.
 */
export function readTokenAnswer(body: string, now: Date, previous?: TokenSet): TokenSet {
  const o = requireObject(parseJson(body, 'token answer'), 'token answer');
  const accessToken = requireString(o, 'access_token', 'token answer');
  const claims = jwtClaims(accessToken);
  const expiresIn = optionalNumber(o, 'expires_in', 'token answer');
  let expiresAt: string;
  if (expiresIn !== undefined && expiresIn > 0) expiresAt = expiresAtAfter(now, expiresIn);
  else if (typeof claims?.exp === 'number' && claims.exp * 1000 > now.getTime()) expiresAt = new Date(claims.exp * 1000).toISOString();
  else throw badResponse('token answer says nothing of when the access token expires');
  const refreshToken = optionalString(o, 'refresh_token', 'token answer') || previous?.refreshToken;
  const user = optionalString(o, 'user', 'token answer') || (typeof claims?.user === 'string' ? claims.user : undefined) || previous?.providerUserId;
  if (!user) throw badResponse('token answer names no Suunto user');
  const scope = optionalString(o, 'scope', 'token answer') ?? previous?.scope;
  return { accessToken, ...(refreshToken ? { refreshToken } : {}), expiresAt, ...(scope ? { scope } : {}), providerUserId: user };
}

/**
 * A refused token request. `invalid_grant` on a refresh is a grant gone for good (the user
 * deauthorized us, or the refresh token expired): auth_revoked. A 401 from the token URL is our
 * client's credentials, never the user's: bad_response. 429 and 5xx stand (retried, never expiring).
 */
const tokenFailure = (res: ProviderResponse, grant: 'code' | 'refresh'): ProviderError =>
  tokenRefusal(res, grant, { provider: 'Suunto', grantGone: ['invalid_grant'], failureOf, passOn: ['rate_limited', 'temporary'] });

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  const res = await http.send(tokenRequest(settings, { grant_type: 'authorization_code', code: params.code, redirect_uri: settings.redirectUri }));
  if (res.status !== 200) throw tokenFailure(res, 'code');
  return readTokenAnswer(res.body, now);
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'Suunto connection has no refresh token');
  const res = await http.send(tokenRequest(settings, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken }));
  if (res.status !== 200) throw tokenFailure(res, 'refresh');
  return readTokenAnswer(res.body, now, tokens);
}

/**
 * `GET /oauth/deauthorize?client_id=…` on the authorization API with the user's token: Suunto then
 * stops sending this user's notifications to us. Refreshed once on a 401 (only a valid token ends
 * them); a grant already gone (refresh refused, or 401/404 after it) is done.
 */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  const url = new URL('/oauth/deauthorize', settings.tokenUrl);
  url.searchParams.set('client_id', settings.clientId);
  const call = (accessToken: string) => http.send({ method: 'GET', url: url.toString(), headers: dataHeaders(settings, accessToken) });
  const res = await withOneRefresh(call, tokens, () => refresh(http, settings, tokens, new Date()));
  if (!res || res.status === 401 || res.status === 404) return;
  const failure = failureOf(res, 'deauthorize');
  if (failure) throw failure;
}
