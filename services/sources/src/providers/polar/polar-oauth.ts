/**
 * Polar's OAuth2 (AccessLink v3 "Authentication"): the authorize URL at flow.polar.com, the code
 * exchange at polarremote.com with HTTP Basic client authentication, no refresh tokens, and the
 * user registration (`POST /v3/users`) AccessLink requires before any data call. Ending access is
 * the de-registration (`DELETE /v3/users/{user-id}`), which "will revoke the access token". Not the
 * kit's token requests: Polar authenticates the client with HTTP Basic, not form credentials.
 */
import { oauthErrorCode } from '../kit/http-status';
import { expiresAtAfter } from '../kit/oauth2-token';
import { ProviderError, ProviderHttp, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, basic, bearer, failureOf } from './polar-http';
import { badResponse, optionalNumber, optionalString, parseJson, requireId, requireObject, requireString } from './polar-json';

/** "Accesslink uses `accesslink.read_all` -scope, which allows access to user's data." */
export const POLAR_SCOPES = ['accesslink.read_all'] as const;

/**
 * Polar's example answer says expires_in "31535999 … about one year"; "Making requests" says access
 * tokens "will not expire unless explicitly revoked". expires_in is read when given; an answer
 * without one is held to the documented year, so the connection is re-consented rather than used past
 * a lifetime we cannot see.
 */
const DEFAULT_LIFETIME_S = 31_535_999;

export function authorizeUrl(settings: ProviderSettings, params: { state: string }): string {
  const url = new URL(settings.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('state', params.state);
  url.searchParams.set('scope', POLAR_SCOPES.join(' '));
  return url.toString();
}

/** `{access_token, token_type: "bearer", expires_in, x_user_id}` as a TokenSet. */
export function readTokenAnswer(body: string, now: Date): TokenSet {
  const o = requireObject(parseJson(body, 'token answer'), 'token answer');
  const accessToken = requireString(o, 'access_token', 'token answer');
  const expiresIn = optionalNumber(o, 'expires_in', 'token answer');
  if (expiresIn !== undefined && expiresIn <= 0) throw badResponse('token answer.expires_in is not positive');
  const userId = requireId(o, 'x_user_id', 'token answer');
  const scope = optionalString(o, 'scope', 'token answer');
  return {
    accessToken,
    expiresAt: expiresAtAfter(now, expiresIn ?? DEFAULT_LIFETIME_S),
    scope: scope || POLAR_SCOPES.join(' '),
    providerUserId: userId,
  };
}

/**
 * Polar's token endpoint answers 400 with an RFC 6749 `error`. `invalid_grant` on a code exchange
 * is a stale or reused code (Polar then deletes every token issued for it): the user consents again
 * (bad_request). `invalid_client` and the rest are our configuration or request: bad_response.
 */
export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  const res = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    headers: { ...basic(settings), accept: 'application/json;charset=UTF-8' },
    // redirect_uri "must be specified if redirect_uri was passed to authorization endpoint": it always is.
    form: { grant_type: 'authorization_code', code: params.code, redirect_uri: settings.redirectUri },
  });
  if (res.status === 400 || res.status === 401) {
    const code = oauthErrorCode(res.body);
    if (code === 'invalid_grant') throw new ProviderError('bad_request', 'Polar refused the authorization code (invalid_grant)', { status: res.status, providerCode: code });
    throw new ProviderError('bad_response', `Polar token endpoint refused the request (${code ?? res.status})`, { status: res.status, ...(code ? { providerCode: code } : {}) });
  }
  const failure = failureOf(res, 'token exchange');
  if (failure) throw failure.kind === 'auth_invalid' || failure.kind === 'consent_missing' ? badResponse(`token endpoint answered ${res.status}`, res.status) : failure;
  return readTokenAnswer(res.body, now);
}

/** AccessLink issues no refresh tokens: once an access token is refused, only a new consent helps. */
export async function refresh(): Promise<TokenSet> {
  throw new ProviderError('auth_revoked', 'Polar issues no refresh tokens: the user must connect again');
}

/**
 * `POST /v3/users` with `{"member-id": …}` ("Partner's custom identifier for user"). We send the
 * Polar user id itself (`wellstream-<x_user_id>`), which tells Polar nothing it does not know and is
 * the same on every reconnect. 200 is the registered user; 409 "User already registered to partner
 * or duplicated member-id" is success for us (a reconnect); 403 is the missing consents.
 */
export async function afterConnect(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  if (!tokens.providerUserId) throw badResponse('no x_user_id to register');
  const res = await http.send({
    method: 'POST',
    url: apiUrl(settings, '/v3/users'),
    headers: bearer(tokens.accessToken),
    json: { 'member-id': `wellstream-${tokens.providerUserId}` },
  });
  if (res.status === 409) return;
  const failure = failureOf(res, 'user registration');
  if (failure) throw failure;
  if (res.status !== 200) throw badResponse(`user registration answered ${res.status}`, res.status);
  const user = requireObject(parseJson(res.body, 'registered user', res.status), 'registered user');
  const id = requireId(user, 'polar-user-id', 'registered user');
  if (id !== tokens.providerUserId) throw badResponse(`registered user ${id} is not the token's user ${tokens.providerUserId}`);
}

/**
 * De-registration: "When partner wishes no longer to receive user data, user can be de-registered.
 * This will revoke the access token authorized by user." 204 is done; a token already refused (401)
 * or a user already gone (404) leaves nothing to revoke.
 */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  if (!tokens.providerUserId) return;
  const res = await http.send({ method: 'DELETE', url: apiUrl(settings, `/v3/users/${encodeURIComponent(tokens.providerUserId)}`), headers: bearer(tokens.accessToken) });
  if (res.status === 401 || res.status === 404) return;
  const failure = failureOf(res, 'de-registration');
  if (failure) throw failure;
}
