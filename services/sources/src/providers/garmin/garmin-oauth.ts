/**
 * Garmin's OAuth 2.0 with PKCE ("OAuth2 PKCE Specification"; OAuth 1.0a is retired at the end of
 * 2026): the consent at connect.garmin.com/oauth2Confirm with an S256 code challenge, the code and
 * refresh-token grants at diauth.garmin.com with the client credentials in the form, the user's
 * API id from `GET /wellness-api/rest/user/id`, and, on disconnect, `DELETE
 * /wellness-api/rest/user/registration` (Garmin then sends a last deregistration notification and
 * refuses that token for good). Garmin has no scope parameter: the permissions (activity, health,
 * historical data) are chosen by the user on Garmin's consent page and told by user/permissions.
 */
import { authorizationCodeRequest, readRotatingTokenAnswer, refreshTokenRequest, tokenRefusal, withOneRefresh } from '../kit/oauth2-token';
import { ProviderError, ProviderHttp, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, bearer, failureOf, REST_PATH, send } from './garmin-http';
import { parseJson, requireObject, requireString } from './garmin-json';

export function authorizeUrl(settings: ProviderSettings, params: { state: string; codeChallenge?: string }): string {
  if (!params.codeChallenge) throw new ProviderError('bad_request', 'Garmin requires PKCE: no code challenge');
  const url = new URL(settings.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('code_challenge', params.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('state', params.state);
  return url.toString();
}

const rules = { provider: 'Garmin', grantGone: ['invalid_grant'], failureOf, passOn: ['rate_limited', 'temporary'] } as const;

/**
 * `{access_token, expires_in (86,400), token_type, refresh_token, refresh_token_expires_in}`; each
 * refresh answers a new refresh token (the old one is spent), which the kit's rotating answer keeps.
 */
export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string; codeVerifier?: string }, now: Date): Promise<TokenSet> {
  if (!params.codeVerifier) throw new ProviderError('bad_request', 'Garmin requires PKCE: no code verifier');
  const request = authorizationCodeRequest(settings, params.code);
  const res = await http.send({ ...request, form: { ...request.form, code_verifier: params.codeVerifier } });
  if (res.status < 200 || res.status >= 300) throw tokenRefusal(res, 'code', rules);
  // The answer names no user: the service asks user/id next (fetchProviderUserId).
  return readRotatingTokenAnswer('Garmin', res.body, now, undefined, { emptyIsAbsent: true });
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'Garmin: no refresh token held');
  const res = await http.send(refreshTokenRequest(settings, tokens.refreshToken));
  if (res.status < 200 || res.status >= 300) throw tokenRefusal(res, 'refresh', rules);
  return { ...readRotatingTokenAnswer('Garmin', res.body, now, tokens.refreshToken, { emptyIsAbsent: true }), ...(tokens.providerUserId ? { providerUserId: tokens.providerUserId } : {}) };
}

/** `GET /wellness-api/rest/user/id` → `{"userId": "…"}`: the id pings and deregistrations carry. */
export async function fetchProviderUserId(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, `${REST_PATH}/user/id`), headers: bearer(accessToken) }, 'user id');
  return requireString(requireObject(parseJson(res.body, 'user id', res.status), 'user id'), 'userId', 'user id');
}

/** The same call, as the cheap check that the token still works (an unsigned deregistration). */
export async function checkAccess(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<void> {
  await fetchProviderUserId(http, settings, accessToken);
}

/**
 * "Delete User Access Token": `DELETE /wellness-api/rest/user/registration`, 204. It must be
 * called whenever the user can reasonably believe they withdrew consent with us, so it is made
 * with a fresh token when the held one is refused; a grant already gone leaves nothing to delete.
 */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  const call = (accessToken: string) => http.send({ method: 'DELETE', url: apiUrl(settings, `${REST_PATH}/user/registration`), headers: bearer(accessToken) });
  const res = await withOneRefresh(call, tokens, () => refresh(http, settings, tokens, new Date()));
  if (!res || res.status === 401 || res.status === 404) return;
  const failure = failureOf(res, 'deregistration');
  if (failure) throw failure;
}
