/**
 * WHOOP's OAuth 2.0 authorization-code flow (developer.whoop.com/docs/developing/oauth): the
 * authorize URL, the code and refresh-token exchanges at the token URL (client credentials in the
 * form, `scope=offline` on refresh as WHOOP's refresh tutorials send it), revocation with
 * `DELETE /v2/user/access`, and the user id from `/v2/user/profile/basic` (the token answer has none).
 */
import { authorizationCodeRequest, readRotatingTokenAnswer, refreshTokenRequest, tokenRefusal, withOneRefresh } from '../kit/oauth2-token';
import { ProviderError, ProviderHttp, ProviderResponse, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, bearer, failureOf, send } from './whoop-http';
import { parseJson, requireId, requireObject } from './whoop-json';

/**
 * Every data scope we read, `read:profile` for the user id webhooks carry, and `offline`, without
 * which WHOOP issues no refresh token (the access token lives an hour).
 */
export const WHOOP_SCOPES = ['read:recovery', 'read:cycles', 'read:sleep', 'read:workout', 'read:body_measurement', 'read:profile', 'offline'] as const;

/** WHOOP: "The state parameter must be eight characters long"; its server refuses shorter ones. */
export const MIN_STATE_LENGTH = 8;

export function authorizeUrl(settings: ProviderSettings, params: { state: string }): string {
  if (params.state.length < MIN_STATE_LENGTH) throw new ProviderError('bad_request', `WHOOP needs a state of at least ${MIN_STATE_LENGTH} characters`);
  const url = new URL(settings.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('scope', WHOOP_SCOPES.join(' '));
  url.searchParams.set('state', params.state);
  return url.toString();
}

/**
 * `{access_token, expires_in, refresh_token, scope, token_type}` as a TokenSet. WHOOP rotates refresh
 * tokens; an answer without one (or with an empty one) keeps the previous.
 */
const readTokenAnswer = (body: string, now: Date, previousRefresh?: string): TokenSet =>
  readRotatingTokenAnswer('WHOOP', body, now, previousRefresh, { emptyIsAbsent: true });

/**
 * Refresh-token errors that mean the grant is gone for good: RFC 6749's `invalid_grant`, and
 * `token_inactive`, which WHOOP's OAuth server may name a refresh token that was already used.
 */
const GRANT_GONE = ['invalid_grant', 'token_inactive'];

/**
 * A refused token request. On refresh a dead grant is auth_revoked; on a code exchange
 * `invalid_grant` is a stale or reused code (bad_request: the user consents again). Any other
 * 400/401 from the token URL is our client's configuration (invalid_client): bad_response.
 */
const tokenFailure = (res: ProviderResponse, grant: 'code' | 'refresh'): ProviderError =>
  tokenRefusal(res, grant, { provider: 'WHOOP', grantGone: GRANT_GONE, failureOf, passOn: ['rate_limited', 'temporary'] });

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  const res = await http.send(authorizationCodeRequest(settings, params.code));
  if (res.status !== 200) throw tokenFailure(res, 'code');
  return readTokenAnswer(res.body, now);
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'WHOOP connection has no refresh token (was offline granted?)');
  const res = await http.send(refreshTokenRequest(settings, tokens.refreshToken, { scope: 'offline' }));
  if (res.status !== 200) throw tokenFailure(res, 'refresh');
  const next = readTokenAnswer(res.body, now, tokens.refreshToken);
  return { ...next, scope: next.scope ?? tokens.scope, ...(tokens.providerUserId ? { providerUserId: tokens.providerUserId } : {}) };
}

/**
 * `DELETE /v2/user/access` with the user's token (204): WHOOP then stops its webhooks for the user.
 * An expired access token (401) is refreshed once and the call repeated, because only a revoke
 * with a valid token ends the webhooks. Best effort: a grant already gone is fine.
 */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  const call = (accessToken: string) => http.send({ method: 'DELETE', url: apiUrl(settings, '/v2/user/access'), headers: bearer(accessToken) });
  const res = await withOneRefresh(call, tokens, () => refresh(http, settings, tokens, new Date()));
  if (!res || res.status === 401) return;
  const failure = failureOf(res, 'revoke');
  if (failure) throw failure;
}

/** `GET /v2/user/profile/basic` → `user_id` (int64), the id WHOOP's webhooks carry. */
export async function fetchProviderUserId(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v2/user/profile/basic'), headers: bearer(accessToken) }, 'profile');
  const o = requireObject(parseJson(res.body, 'profile', res.status), 'profile');
  return requireId(o, 'user_id', 'profile');
}
