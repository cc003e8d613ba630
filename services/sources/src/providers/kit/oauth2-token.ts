/**
 * The standard OAuth 2.0 token calls (RFC 6749 §4.1.3 and §6) as Oura, WHOOP, Dexcom and Strava
 * document them: form-encoded POSTs to the token URL with the client credentials in the body
 * (client_secret_post), a bearer answer whose expires_in becomes an absolute expiresAt, and
 * `invalid_grant` read as "the grant is gone". What differs stays with the provider: Polar
 * authenticates with HTTP Basic and has no refresh; Withings wraps everything in `action=requesttoken`
 * and a status-in-200 envelope; Strava reads refusals from its Fault body; Dexcom words its own errors.
 */
import { ProviderError, ProviderErrorKind, ProviderRequest, ProviderResponse, ProviderSettings, TokenSet } from '../provider.port';
import { oauthErrorCode } from './http-status';
import { jsonReader } from './json-reading';

/** `now + expires_in` seconds, at receipt by our clock (the provider's clock is never compared with ours). */
export const expiresAtAfter = (now: Date, expiresInS: number): string => new Date(now.getTime() + expiresInS * 1000).toISOString();

/**
 * The authorization_code grant. `redirectUri: false` for a provider whose documented exchange
 * leaves it out (Strava).
 */
export function authorizationCodeRequest(settings: ProviderSettings, code: string, opts: { redirectUri?: boolean } = {}): ProviderRequest {
  return {
    method: 'POST',
    url: settings.tokenUrl,
    form: {
      grant_type: 'authorization_code',
      code,
      ...(opts.redirectUri === false ? {} : { redirect_uri: settings.redirectUri }),
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
    },
  };
}

/** The refresh_token grant; `extra` holds what a provider documents beyond RFC 6749 (e.g. WHOOP's scope). */
export function refreshTokenRequest(settings: ProviderSettings, refreshToken: string, extra: Record<string, string> = {}): ProviderRequest {
  return {
    method: 'POST',
    url: settings.tokenUrl,
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: settings.clientId, client_secret: settings.clientSecret, ...extra },
  };
}

/**
 * `{access_token, expires_in, refresh_token?, scope?}` of a provider that rotates refresh tokens:
 * an answer without a refresh token keeps the previous one (RFC 6749 §6 allows it). `emptyIsAbsent`:
 * whether an empty `refresh_token` also keeps the previous one (WHOOP) or leaves none (Oura).
 */
export function readRotatingTokenAnswer(
  provider: string,
  body: string,
  now: Date,
  previousRefresh: string | undefined,
  opts: { emptyIsAbsent: boolean },
): TokenSet {
  const { badResponse, optionalNumber, optionalString, parseJson, requireObject, requireString } = jsonReader(provider);
  const o = requireObject(parseJson(body, 'token answer'), 'token answer');
  const accessToken = requireString(o, 'access_token', 'token answer');
  const expiresIn = optionalNumber(o, 'expires_in', 'token answer');
  if (expiresIn === undefined || expiresIn <= 0) throw badResponse('token answer.expires_in is missing');
  const given = optionalString(o, 'refresh_token', 'token answer');
  const refreshToken = opts.emptyIsAbsent ? given || previousRefresh : (given ?? previousRefresh);
  const scope = optionalString(o, 'scope', 'token answer');
  return {
    accessToken,
    ...(refreshToken ? { refreshToken } : {}),
    expiresAt: expiresAtAfter(now, expiresIn),
    ...(scope ? { scope } : {}),
  };
}

export interface TokenRefusalRules {
  provider: string;
  /** RFC 6749 §5.2 error codes that mean the grant is gone (always `invalid_grant`, plus the provider's own). */
  grantGone: readonly string[];
  /** The provider's status mapping for its other calls. */
  failureOf: (res: ProviderResponse, what: string) => ProviderError | undefined;
  /** Which of those kinds stand as they are for a token call; any other becomes bad_response. */
  passOn: readonly ProviderErrorKind[];
}

/**
 * A refused token request. A dead grant on refresh is auth_revoked (the connection ends); on a code
 * exchange it is a stale or reused code (bad_request: the user consents again). A 401 from the token
 * URL is our client's credentials (invalid_client), never a user token to refresh, so it is never
 * auth_invalid; what else stands is the provider's choice (`passOn`).
 */
export function tokenRefusal(res: ProviderResponse, grant: 'code' | 'refresh', rules: TokenRefusalRules): ProviderError {
  const { status } = res;
  const code = oauthErrorCode(res.body);
  if (code && rules.grantGone.includes(code)) {
    return grant === 'refresh'
      ? new ProviderError('auth_revoked', `${rules.provider} refused the refresh token (${code})`, { status, providerCode: code })
      : new ProviderError('bad_request', `${rules.provider} refused the authorization code (${code})`, { status, providerCode: code });
  }
  const shared = rules.failureOf(res, grant === 'refresh' ? 'token refresh' : 'code exchange');
  if (shared && rules.passOn.includes(shared.kind)) return shared;
  return new ProviderError('bad_response', `${rules.provider} token endpoint refused the request (${code ?? status})`, { status, ...(code ? { providerCode: code } : {}) });
}

/**
 * A call made with the user's access token that must really reach the provider (a revoke or
 * deauthorization ends webhooks only when made with a valid token): on a 401 the refresh token is
 * traded once and the call repeated. undefined when the refresh says the grant is gone already.
 */
export async function withOneRefresh(
  call: (accessToken: string) => Promise<ProviderResponse>,
  tokens: TokenSet,
  refresh: () => Promise<TokenSet>,
): Promise<ProviderResponse | undefined> {
  const res = await call(tokens.accessToken);
  if (res.status !== 401 || !tokens.refreshToken) return res;
  let fresh: TokenSet;
  try {
    fresh = await refresh();
  } catch (e) {
    if (e instanceof ProviderError && e.kind === 'auth_revoked') return undefined;
    throw e;
  }
  return call(fresh.accessToken);
}
