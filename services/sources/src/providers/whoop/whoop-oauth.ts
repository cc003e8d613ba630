/**
 * WHOOP's OAuth 2.0 authorization-code flow (developer.whoop.com/docs/developing/oauth): the
 * authorize URL, the code and refresh-token exchanges at the token URL (client credentials in the
 * form, `scope=offline` on refresh as WHOOP's refresh tutorials send it), revocation with
 * `DELETE /v2/user/access`, and the user id from `/v2/user/profile/basic` (the token answer has none).
 */
import { ProviderError, ProviderHttp, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, bearer, failureOf, oauthErrorCode, send } from './whoop-http';
import { badResponse, optionalNumber, optionalString, parseJson, requireId, requireObject, requireString } from './whoop-json';

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

/** `{access_token, expires_in, refresh_token, scope, token_type}` as a TokenSet. */
function readTokenAnswer(body: string, now: Date, previousRefresh?: string): TokenSet {
  const o = requireObject(parseJson(body, 'token answer'), 'token answer');
  const accessToken = requireString(o, 'access_token', 'token answer');
  const expiresIn = optionalNumber(o, 'expires_in', 'token answer');
  if (expiresIn === undefined || expiresIn <= 0) throw badResponse('token answer.expires_in is missing');
  // WHOOP rotates refresh tokens; an answer without one keeps the previous (RFC 6749 §6 allows it).
  const refreshToken = optionalString(o, 'refresh_token', 'token answer') || previousRefresh;
  const scope = optionalString(o, 'scope', 'token answer');
  return {
    accessToken,
    ...(refreshToken ? { refreshToken } : {}),
    expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString(),
    ...(scope ? { scope } : {}),
  };
}

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
function tokenFailure(status: number, body: string, headers: Record<string, string>, grant: 'code' | 'refresh'): ProviderError {
  const code = oauthErrorCode(body);
  if (code && GRANT_GONE.includes(code)) {
    return grant === 'refresh'
      ? new ProviderError('auth_revoked', `WHOOP refused the refresh token (${code})`, { status, providerCode: code })
      : new ProviderError('bad_request', `WHOOP refused the authorization code (${code})`, { status, providerCode: code });
  }
  const shared = failureOf({ status, body, headers }, grant === 'refresh' ? 'token refresh' : 'code exchange');
  if (shared && shared.kind !== 'auth_invalid' && shared.kind !== 'consent_missing' && shared.kind !== 'bad_response') return shared;
  return new ProviderError('bad_response', `WHOOP token endpoint refused the request (${code ?? status})`, { status, ...(code ? { providerCode: code } : {}) });
}

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  const res = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    form: {
      grant_type: 'authorization_code',
      code: params.code,
      redirect_uri: settings.redirectUri,
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
    },
  });
  if (res.status !== 200) throw tokenFailure(res.status, res.body, res.headers, 'code');
  return readTokenAnswer(res.body, now);
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'WHOOP connection has no refresh token (was offline granted?)');
  const res = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    form: {
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      scope: 'offline',
    },
  });
  if (res.status !== 200) throw tokenFailure(res.status, res.body, res.headers, 'refresh');
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
  let res = await call(tokens.accessToken);
  if (res.status === 401 && tokens.refreshToken) {
    let fresh: TokenSet;
    try {
      fresh = await refresh(http, settings, tokens, new Date());
    } catch (e) {
      if (e instanceof ProviderError && e.kind === 'auth_revoked') return;
      throw e;
    }
    res = await call(fresh.accessToken);
  }
  if (res.status === 401) return;
  const failure = failureOf(res, 'revoke');
  if (failure) throw failure;
}

/** `GET /v2/user/profile/basic` → `user_id` (int64), the id WHOOP's webhooks carry. */
export async function fetchProviderUserId(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v2/user/profile/basic'), headers: bearer(accessToken) }, 'profile');
  const o = requireObject(parseJson(res.body, 'profile', res.status), 'profile');
  return requireId(o, 'user_id', 'profile');
}
