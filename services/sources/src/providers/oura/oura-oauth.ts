/**
 * Oura's OAuth2 server-side flow (https://cloud.ouraring.com/docs/authentication): the authorize
 * URL, the code and refresh-token exchanges at the token URL, revocation, and the user's id from
 * `personal_info` (the token answer carries none, and webhooks name users by that id).
 */
import { authorizationCodeRequest, readRotatingTokenAnswer, refreshTokenRequest, tokenRefusal } from '../kit/oauth2-token';
import { ProviderError, ProviderHttp, ProviderResponse, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, bearer, failureOf, send } from './oura-http';
import { parseJson, requireObject, requireString } from './oura-json';

/**
 * `daily` covers daily_activity and sleep, `heartrate` the time series, `workout` the workouts.
 * personal_info's `id` needs no scope (Oura: "You can access the id on the personal_info route with
 * any access token"), so `personal` and `email` are not asked for: we read no personal data.
 */
export const OURA_SCOPES = ['daily', 'heartrate', 'workout'] as const;

export function authorizeUrl(settings: ProviderSettings, params: { state: string }): string {
  const url = new URL(settings.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('state', params.state);
  url.searchParams.set('scope', OURA_SCOPES.join(' '));
  return url.toString();
}

/**
 * `{token_type, access_token, expires_in, refresh_token, scope?}` as a TokenSet. Oura rotates refresh
 * tokens; an answer without one keeps the previous (an empty one leaves none).
 */
const readTokenAnswer = (body: string, now: Date, previousRefresh?: string): TokenSet =>
  readRotatingTokenAnswer('Oura', body, now, previousRefresh, { emptyIsAbsent: false });

/**
 * A refused token request. `invalid_grant` means the grant is gone: on refresh the connection is
 * revoked for good (auth_revoked); on a code exchange it is a stale or reused code (bad_request, the
 * user retries the consent). `invalid_client` is our configuration, not the user's: bad_response.
 * Every other kind of Oura's status mapping stands.
 */
const tokenFailure = (res: ProviderResponse, grant: 'code' | 'refresh'): ProviderError =>
  tokenRefusal(res, grant, { provider: 'Oura', grantGone: ['invalid_grant'], failureOf, passOn: ['consent_missing', 'rate_limited', 'temporary', 'bad_response'] });

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  // Oura's examples send the client credentials in the form body.
  const res = await http.send(authorizationCodeRequest(settings, params.code));
  if (res.status !== 200) throw tokenFailure(res, 'code');
  return readTokenAnswer(res.body, now);
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'Oura connection has no refresh token');
  const res = await http.send(refreshTokenRequest(settings, tokens.refreshToken));
  if (res.status !== 200) throw tokenFailure(res, 'refresh');
  const next = readTokenAnswer(res.body, now, tokens.refreshToken);
  // The answer does not repeat the user id or (always) the scope: carry them over.
  return { ...next, scope: next.scope ?? tokens.scope, ...(tokens.providerUserId ? { providerUserId: tokens.providerUserId } : {}) };
}

/**
 * `GET {token URL's origin}/oauth/revoke?access_token=…`. The port has no revoke URL setting, so it
 * hangs from the token URL's origin, as Oura's own URLs do. Best effort: a token Oura no longer knows
 * (401/400) is already revoked.
 */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  const url = new URL('/oauth/revoke', settings.tokenUrl);
  url.searchParams.set('access_token', tokens.accessToken);
  const res = await http.send({ method: 'GET', url: url.toString() });
  if (res.status === 400 || res.status === 401) return;
  const failure = failureOf(res, 'revoke');
  if (failure) throw failure;
}

export async function fetchProviderUserId(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v2/usercollection/personal_info'), headers: bearer(accessToken) }, 'personal_info');
  const o = requireObject(parseJson(res.body, 'personal_info', res.status), 'personal_info');
  return requireString(o, 'id', 'personal_info');
}
