/**
 * Google OAuth 2.0 for web server applications, as the Google Health API requires it (migration
 * guide, "OAuth Implementation"; Google Identity "Using OAuth 2.0 for Web Server Applications"):
 * the authorize URL with `access_type=offline` (without it Google issues no refresh token) and
 * `prompt=consent` (so a reconnect gets a refresh token again) and PKCE (S256); the code and
 * refresh exchanges at the token URL (client_secret_post); `invalid_grant` on refresh means the
 * grant is gone (revoked, or the user changed their password); revocation at `/revoke` beside the
 * token URL; the user's id from `users/me/identity`.
 */
import { authorizationCodeRequest, readRotatingTokenAnswer, refreshTokenRequest, tokenRefusal } from '../kit/oauth2-token';
import { ProviderError, ProviderHttp, ProviderResponse, ProviderSettings, TokenSet } from '../provider.port';
import { apiUrl, bearer, failureOf, send } from './google-health-http';
import { parseJson, requireObject, requireString } from './google-health-json';

const SCOPE = (name: string) => `https://www.googleapis.com/auth/googlehealth.${name}`;

/**
 * The read scopes of the data we map (data types table): exercise, heart rate and weight are under
 * activity_and_fitness / health_metrics_and_measurements, sleep under sleep. Google's consent lets
 * the user grant them one by one; the token answer's `scope` says which.
 */
export const GOOGLE_HEALTH_SCOPES = [SCOPE('activity_and_fitness.readonly'), SCOPE('health_metrics_and_measurements.readonly'), SCOPE('sleep.readonly')] as const;

export function authorizeUrl(settings: ProviderSettings, params: { state: string; codeChallenge?: string }): string {
  const url = new URL(settings.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('scope', GOOGLE_HEALTH_SCOPES.join(' '));
  url.searchParams.set('state', params.state);
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  if (params.codeChallenge) {
    url.searchParams.set('code_challenge', params.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

/** Google keeps one refresh token per grant: a refresh answer has none, and the previous one stays. */
const readTokenAnswer = (body: string, now: Date, previousRefresh?: string): TokenSet =>
  readRotatingTokenAnswer('Google Health', body, now, previousRefresh, { emptyIsAbsent: true });

const tokenFailure = (res: ProviderResponse, grant: 'code' | 'refresh'): ProviderError =>
  tokenRefusal(res, grant, { provider: 'Google Health', grantGone: ['invalid_grant'], failureOf, passOn: ['rate_limited', 'temporary'] });

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string; codeVerifier?: string }, now: Date): Promise<TokenSet> {
  const request = authorizationCodeRequest(settings, params.code);
  if (params.codeVerifier) request.form = { ...request.form, code_verifier: params.codeVerifier };
  const res = await http.send(request);
  if (res.status !== 200) throw tokenFailure(res, 'code');
  const tokens = readTokenAnswer(res.body, now);
  // Without a refresh token the connection would end within the hour: refuse it now, visibly.
  if (!tokens.refreshToken) throw new ProviderError('bad_response', 'Google Health issued no refresh token (access_type=offline refused?)');
  return tokens;
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'Google Health connection has no refresh token');
  const res = await http.send(refreshTokenRequest(settings, tokens.refreshToken));
  if (res.status !== 200) throw tokenFailure(res, 'refresh');
  const next = readTokenAnswer(res.body, now, tokens.refreshToken);
  return { ...next, scope: next.scope ?? tokens.scope, ...(tokens.providerUserId ? { providerUserId: tokens.providerUserId } : {}) };
}

/** `https://oauth2.googleapis.com/revoke` beside the token URL (the simulator's likewise). */
export const revokeUrl = (settings: ProviderSettings): string => new URL('revoke', settings.tokenUrl.replace(/[^/]*$/, '')).toString();

/**
 * `POST /revoke` with `token=<refresh token>`: revoking the refresh token ends the whole grant (and
 * its access tokens). 200 is done; 400 `invalid_token` means it is gone already, which is what we
 * wanted. Other failures throw so the service retries the revoke.
 */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  const res = await http.send({ method: 'POST', url: revokeUrl(settings), form: { token: tokens.refreshToken ?? tokens.accessToken } });
  if (res.status === 200 || res.status === 400) return;
  const failure = failureOf(res, 'revoke');
  if (failure) throw failure;
}

/** `GET /v4/users/me/identity` → `healthUserId`, the id in resource names (and so in notifications). */
export async function fetchProviderUserId(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v4/users/me/identity'), headers: bearer(accessToken) }, 'identity');
  return requireString(requireObject(parseJson(res.body, 'identity', res.status), 'identity'), 'healthUserId', 'identity');
}
