/**
 * Strava's OAuth2 web flow (developers.strava.com/docs/authentication): the authorize URL with
 * comma-delimited scopes and `approval_prompt`, the code exchange (whose answer carries the
 * `athlete`: its id is the provider user id, what webhook events name as `owner_id`), refresh with
 * rotating refresh tokens, and deauthorization. Client credentials go in the form, as the documented
 * requests send them.
 */
import { authorizationCodeRequest, refreshTokenRequest, withOneRefresh } from '../kit/oauth2-token';
import { ConsentScopes, ProviderError, ProviderHttp, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, bearer, failureOf, faultCode, faultErrors, send } from './strava-http';
import { badResponse, isObject, optionalNumber, optionalString, parseJson, requireId, requireObject, requireString } from './strava-json';

/**
 * `activity:read_all`: every activity including "Only You" ones and privacy zones, and the privacy
 * update events. Nothing else is read (the athlete id comes with the token answer), so neither
 * `read` nor a profile scope is asked for.
 */
export const STRAVA_SCOPES = ['activity:read_all'] as const;

/**
 * What the athlete can untick. Asked for activity:read_all, Strava's page shows "View data about
 * your activities" and "View data about your private activities" (support.strava.com, "App
 * Authorization Settings"); unticking the second comes back as `scope=read,activity:read` (public
 * and followers-only activities: data, with activity:read_all missing), unticking both as
 * `scope=read` (no activity data at all: no connection).
 */
export const STRAVA_CONSENT_SCOPES: ConsentScopes = { data: [{ scope: 'activity:read_all', partlyBy: ['activity:read'] }] };

/**
 * `approval_prompt=force`: the consent page is always shown, so a reconnect lets the athlete
 * re-tick activity access they unticked before (with `auto` Strava may skip the page and keep the
 * old choice).
 */
export function authorizeUrl(settings: ProviderSettings, params: { state: string }): string {
  const url = new URL(settings.authUrl);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('approval_prompt', 'force');
  url.searchParams.set('scope', STRAVA_SCOPES.join(','));
  url.searchParams.set('state', params.state);
  return url.toString();
}

/**
 * `{token_type, expires_at, expires_in, refresh_token, access_token, athlete?}`. expiresAt is taken
 * from expires_in at receipt (our clock); expires_at (Strava's clock) only when expires_in is absent.
 */
function readTokenAnswer(body: string, now: Date, previous?: TokenSet): TokenSet {
  const o = requireObject(parseJson(body, 'token answer'), 'token answer');
  const accessToken = requireString(o, 'access_token', 'token answer');
  const expiresIn = optionalNumber(o, 'expires_in', 'token answer');
  const expiresAtS = optionalNumber(o, 'expires_at', 'token answer');
  let expiresAt: number;
  if (expiresIn !== undefined && expiresIn > 0) expiresAt = now.getTime() + expiresIn * 1000;
  else if (expiresAtS !== undefined && expiresAtS * 1000 > now.getTime()) expiresAt = expiresAtS * 1000;
  else throw badResponse('token answer has no usable expires_in/expires_at');
  // Strava rotates refresh tokens ("always use the most recent one"); keep the old one only if none came.
  const refreshToken = optionalString(o, 'refresh_token', 'token answer') ?? previous?.refreshToken;
  if (!refreshToken) throw badResponse('token answer has no refresh_token');
  const athlete = o.athlete;
  const providerUserId = isObject(athlete) ? requireId(athlete, 'id', 'token answer.athlete') : previous?.providerUserId;
  return {
    accessToken,
    refreshToken,
    expiresAt: new Date(expiresAt).toISOString(),
    ...(previous?.scope ? { scope: previous.scope } : {}),
    ...(providerUserId ? { providerUserId } : {}),
  };
}

/**
 * A refused token request, read from Strava's Fault body. A refresh token Strava names as invalid
 * (`{"resource":"RefreshToken","field":"refresh_token","code":"invalid"}`: used after rotation, or the
 * athlete revoked us) is auth_revoked; a code it names as invalid is bad_request (the user consents
 * again). Anything else (our client credentials, a 400 we cannot read) is bad_response: the
 * connection is not thrown away on an answer that does not say the grant is gone.
 */
function tokenFailure(status: number, body: string, headers: Record<string, string>, grant: 'code' | 'refresh'): ProviderError {
  const errors = faultErrors(body);
  const providerCode = faultCode(errors);
  const details = { status, ...(providerCode ? { providerCode } : {}) };
  if (status === 400 || status === 401) {
    if (grant === 'refresh' && errors.some((e) => e.resource === 'RefreshToken' || e.field === 'refresh_token')) {
      return new ProviderError('auth_revoked', 'Strava refused the refresh token', details);
    }
    if (grant === 'code' && errors.some((e) => e.resource === 'AuthorizationCode' || e.field === 'code')) {
      return new ProviderError('bad_request', 'Strava refused the authorization code', details);
    }
    return new ProviderError('bad_response', `Strava token endpoint refused the request (${providerCode ?? status})`, details);
  }
  return failureOf({ status, body, headers }, grant === 'refresh' ? 'token refresh' : 'code exchange') ?? badResponse(`token endpoint answered ${status}`, status);
}

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  // Strava's documented exchange sends no redirect_uri.
  const res = await http.send(authorizationCodeRequest(settings, params.code, { redirectUri: false }));
  if (res.status < 200 || res.status >= 300) throw tokenFailure(res.status, res.body, res.headers, 'code');
  const tokens = readTokenAnswer(res.body, now);
  if (!tokens.providerUserId) throw badResponse('code exchange answer has no athlete.id');
  return tokens;
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'Strava connection has no refresh token');
  const res = await http.send(refreshTokenRequest(settings, tokens.refreshToken));
  if (res.status < 200 || res.status >= 300) throw tokenFailure(res.status, res.body, res.headers, 'refresh');
  return readTokenAnswer(res.body, now, tokens);
}

/** `POST https://www.strava.com/oauth/deauthorize` with `access_token`, hung from the token URL's origin (the port has no revoke URL). */
const deauthorizeUrl = (settings: ProviderSettings) => new URL('/oauth/deauthorize', settings.tokenUrl).toString();

/**
 * Deauthorize: "invalidates all tokens and removes the application from the athlete's settings".
 * The stored access token may have expired (they last six hours): on a 401 the refresh token is
 * traded once and the call repeated, so the grant really goes. A refresh Strava refuses means it is
 * gone already.
 */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  const call = (accessToken: string) => http.send({ method: 'POST', url: deauthorizeUrl(settings), headers: bearer(accessToken), form: { access_token: accessToken } });
  const res = await withOneRefresh(call, tokens, () => refresh(http, settings, tokens, new Date()));
  if (!res || res.status === 401) return;
  const failure = failureOf(res, 'deauthorize');
  if (failure) throw failure;
}

/** `GET /athlete`: the authenticated athlete's id (the code exchange already gives it; this is for tokens stored without it). */
export async function fetchProviderUserId(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/athlete'), headers: bearer(accessToken) }, 'athlete');
  return requireId(requireObject(parseJson(res.body, 'athlete', res.status), 'athlete'), 'id', 'athlete');
}

/**
 * Whether the athlete's token still works, in one read (`GET /athlete`, which any token may call):
 * resolves while it does, throws auth_invalid on Strava's 401. A 401 naming a missing permission
 * comes from a token Strava still knows, so it resolves too.
 */
export async function checkAccess(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<void> {
  const res = await http.send({ method: 'GET', url: apiUrl(settings, '/athlete'), headers: bearer(accessToken) });
  const failure = failureOf(res, 'athlete');
  if (failure && failure.kind !== 'consent_missing') throw failure;
}
