/**
 * Oura's OAuth2 server-side flow (https://cloud.ouraring.com/docs/authentication): the authorize
 * URL, the code and refresh-token exchanges at the token URL, revocation, and the user's id from
 * `personal_info` (the token answer carries none, and webhooks name users by that id).
 */
import { ProviderError, ProviderHttp, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, bearer, failureOf, oauthErrorCode, send } from './oura-http';
import { badResponse, optionalNumber, optionalString, parseJson, requireObject, requireString } from './oura-json';

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

/** `{token_type, access_token, expires_in, refresh_token, scope?}` as a TokenSet. */
function readTokenAnswer(body: string, now: Date, previousRefresh?: string): TokenSet {
  const o = requireObject(parseJson(body, 'token answer'), 'token answer');
  const accessToken = requireString(o, 'access_token', 'token answer');
  const expiresIn = optionalNumber(o, 'expires_in', 'token answer');
  if (expiresIn === undefined || expiresIn <= 0) throw badResponse('token answer.expires_in is missing');
  // Oura rotates refresh tokens; an answer without one keeps the previous (RFC 6749 §6 allows it).
  const refreshToken = optionalString(o, 'refresh_token', 'token answer') ?? previousRefresh;
  const scope = optionalString(o, 'scope', 'token answer');
  return {
    accessToken,
    ...(refreshToken ? { refreshToken } : {}),
    expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString(),
    ...(scope ? { scope } : {}),
  };
}

/**
 * A refused token request. `invalid_grant` means the grant is gone: on refresh the connection is
 * revoked for good (auth_revoked); on a code exchange it is a stale or reused code (bad_request, the
 * user retries the consent). `invalid_client` is our configuration, not the user's: bad_response.
 */
function tokenFailure(status: number, body: string, headers: Record<string, string>, grant: 'code' | 'refresh'): ProviderError {
  const code = oauthErrorCode(body);
  if (code === 'invalid_grant') {
    return grant === 'refresh'
      ? new ProviderError('auth_revoked', 'Oura refused the refresh token (invalid_grant)', { status, providerCode: code })
      : new ProviderError('bad_request', 'Oura refused the authorization code (invalid_grant)', { status, providerCode: code });
  }
  const shared = failureOf({ status, body, headers }, grant === 'refresh' ? 'token refresh' : 'code exchange');
  // A 401 from the token URL is the client's credentials (invalid_client), never a user token to refresh.
  if (shared && shared.kind !== 'auth_invalid') return shared;
  return new ProviderError('bad_response', `Oura token endpoint refused the request (${code ?? status})`, { status, ...(code ? { providerCode: code } : {}) });
}

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  const res = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    // Oura's examples send the client credentials in the form body.
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
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'Oura connection has no refresh token');
  const res = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    form: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: settings.clientId, client_secret: settings.clientSecret },
  });
  if (res.status !== 200) throw tokenFailure(res.status, res.body, res.headers, 'refresh');
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
