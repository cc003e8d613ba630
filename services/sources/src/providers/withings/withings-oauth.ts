/**
 * Withings OAuth 2.0: the authorize URL (account.withings.com/oauth2_user/authorize2, comma-
 * separated scopes, no PKCE), the non-standard token call (POST v2/oauth2 with
 * `action=requesttoken`, answered in the `{status, body}` envelope, client secret in the form),
 * refresh-token rotation (every refresh returns a new refresh token that must replace the old one)
 * and revocation (action=revoke, which needs a nonce from v2/signature and an HMAC-SHA256
 * signature, per the API reference).
 */
import { createHmac } from 'node:crypto';
import { ProviderError, ProviderHttp, ProviderSettings, TokenSet } from '../provider.port';
import { idOf, int, PATHS, str } from './withings-http';
import { readEnvelope } from './withings-status';

/** Measures, activity and sleep; user.info as the API reference's authorize example asks (README: it may need a contract). */
export const WITHINGS_SCOPES = 'user.info,user.metrics,user.activity';

export function authorizeUrl(settings: ProviderSettings, params: { state: string }): string {
  const url = new URL(settings.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('scope', WITHINGS_SCOPES);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('state', params.state);
  return url.toString();
}

function tokenSetOf(body: Record<string, unknown>, now: Date, previous?: TokenSet): TokenSet {
  const accessToken = str(body.access_token);
  const refreshToken = str(body.refresh_token);
  const expiresIn = int(body.expires_in);
  if (!accessToken || !refreshToken || expiresIn === undefined || expiresIn <= 0) {
    throw new ProviderError('bad_response', 'withings requesttoken: the answer lacks access_token, refresh_token or expires_in');
  }
  // userid is documented as an integer and shown as a string elsewhere: kept as a string either way.
  const userId = idOf(body.userid) ?? previous?.providerUserId;
  const scope = str(body.scope) ?? previous?.scope;
  return {
    accessToken,
    refreshToken,
    expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString(),
    ...(scope ? { scope } : {}),
    ...(userId ? { providerUserId: userId } : {}),
  };
}

async function requestToken(http: ProviderHttp, settings: ProviderSettings, form: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    form: { action: 'requesttoken', client_id: settings.clientId, client_secret: settings.clientSecret, ...form },
  });
  return readEnvelope(res, `withings requesttoken (${form.grant_type})`, 'token');
}

export async function exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string }, now: Date): Promise<TokenSet> {
  const body = await requestToken(http, settings, { grant_type: 'authorization_code', code: params.code, redirect_uri: settings.redirectUri });
  return tokenSetOf(body, now);
}

/** Throws auth_revoked when Withings refuses the refresh token (old, revoked or expired). */
export async function refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new ProviderError('auth_revoked', 'withings refresh: no refresh token stored');
  const body = await requestToken(http, settings, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
  return tokenSetOf(body, now, tokens);
}

/**
 * The signature of a signed call: the values of the signed params sorted by name, joined by commas,
 * HMAC-SHA256 with the client secret (Signature v2 - Getnonce description).
 */
export function signParams(params: Record<string, string>, clientSecret: string): string {
  const joined = Object.keys(params)
    .sort()
    .map((k) => params[k])
    .join(',');
  return createHmac('sha256', clientSecret).update(joined).digest('hex');
}

async function getNonce(http: ProviderHttp, settings: ProviderSettings): Promise<string> {
  const signed = { action: 'getnonce', client_id: settings.clientId, timestamp: String(Math.floor(Date.now() / 1000)) };
  const res = await http.send({
    method: 'POST',
    url: `${settings.apiUrl}${PATHS.signatureV2}`,
    form: { ...signed, signature: signParams(signed, settings.clientSecret) },
  });
  const nonce = str(readEnvelope(res, 'withings getnonce', 'data').nonce);
  if (!nonce) throw new ProviderError('bad_response', 'withings getnonce: no nonce in the answer');
  return nonce;
}

/** OAuth 2.0 - Revoke user access: tokens die and the user's notify subscriptions go with them. */
export async function revoke(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void> {
  if (!tokens.providerUserId) return; // the call names the user; without the userid there is nothing to revoke
  const nonce = await getNonce(http, settings);
  const signed = { action: 'revoke', client_id: settings.clientId, nonce };
  const res = await http.send({
    method: 'POST',
    url: settings.tokenUrl,
    form: { ...signed, signature: signParams(signed, settings.clientSecret), userid: tokens.providerUserId },
  });
  readEnvelope(res, 'withings revoke', 'data');
}
