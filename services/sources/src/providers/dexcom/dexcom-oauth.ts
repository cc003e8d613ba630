/**
 * Dexcom's OAuth 2.0 authorization-code flow (developer.dexcom.com, "Authentication"): the login
 * URL the browser goes to, the code exchange and the refresh, both form-encoded POSTs to the
 * token endpoint carrying client_id and client_secret in the body. Refresh tokens are single-use:
 * every refresh answers a new one, and the old one is dead from then on. The requests are the
 * kit's (kit/oauth2-token); the answer and its errors are read here, worded as the rest of this adapter.
 */
import { authorizationCodeRequest, expiresAtAfter, refreshTokenRequest } from '../kit/oauth2-token';
import { ProviderError, ProviderHttp, ProviderResponse, ProviderSettings, TokenSet } from '../provider.port';
import { isObject, parseJson, tokenError } from './dexcom-errors';

/** The only scope Dexcom documents; it is what yields a refresh token. */
export const DEXCOM_SCOPE = 'offline_access';

export function authorizeUrl(settings: ProviderSettings, params: { state: string }): string {
  const url = new URL(settings.authUrl);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', DEXCOM_SCOPE);
  url.searchParams.set('state', params.state);
  return url.toString();
}

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, code: string, now: Date): Promise<TokenSet> {
  const res = await http.send(authorizationCodeRequest(settings, code));
  return readTokens(res, 'code exchange', now);
}

export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'Dexcom refresh: no refresh token is held');
  // redirect_uri sent as on the code exchange: an RFC 6749 server ignores it when unneeded (README: silent docs).
  const res = await http.send(refreshTokenRequest(settings, tokens.refreshToken, { redirect_uri: settings.redirectUri }));
  const next = readTokens(res, 'refresh', now);
  // Rotation: the answer's refresh token replaces ours. Should one ever come without it, keeping
  // the old one is the only thing left to try (at worst the next refresh says invalid_grant).
  return { ...next, refreshToken: next.refreshToken ?? tokens.refreshToken, providerUserId: tokens.providerUserId };
}

/** `{access_token, expires_in, token_type, refresh_token}` → TokenSet; anything else is an error. */
function readTokens(res: ProviderResponse, what: string, now: Date): TokenSet {
  if (res.status < 200 || res.status >= 300) throw tokenError(res, what);
  const body = parseJson(res, what);
  if (!isObject(body) || typeof body.access_token !== 'string' || body.access_token === '') {
    throw new ProviderError('bad_response', `Dexcom ${what}: no access_token in the answer`, { status: res.status });
  }
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new ProviderError('bad_response', `Dexcom ${what}: expires_in is not a positive number`, { status: res.status });
  }
  const tokens: TokenSet = {
    accessToken: body.access_token,
    expiresAt: expiresAtAfter(now, expiresIn),
    scope: typeof body.scope === 'string' ? body.scope : DEXCOM_SCOPE,
  };
  if (typeof body.refresh_token === 'string' && body.refresh_token !== '') tokens.refreshToken = body.refresh_token;
  return tokens;
}
