/**
 * How Dexcom's HTTP answers become ProviderErrors, and a JSON reader that never throws anything
 * but a ProviderError. Every caller in this folder goes through here, so one status means one
 * thing for the whole adapter. Dexcom keeps its own mapping (not kit/http-status's statusFailure):
 * it documents no 403 meaning, its Retry-After may be an HTTP-date, and without one the service
 * picks the backoff.
 */
import { oauthErrorCode as bodyErrorCode } from '../kit/http-status';
import { ProviderError, ProviderResponse } from '../provider.port';

/** Parses a body as JSON; garbage becomes bad_response (never a SyntaxError or TypeError). */
export function parseJson(res: ProviderResponse, what: string): unknown {
  try {
    return JSON.parse(res.body) as unknown;
  } catch {
    throw new ProviderError('bad_response', `Dexcom ${what}: the answer is not JSON`, { status: res.status });
  }
}

export { isObject } from '../kit/json-reading';

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). Absent or
 * unreadable → undefined: the service owns the default backoff, we do not invent one.
 */
export function retryAfterMs(headers: Record<string, string>, now: number = Date.now()): number | undefined {
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The OAuth error code of a token-endpoint answer (RFC 6749 §5.2 `error`), when readable. */
export const oauthErrorCode = (res: ProviderResponse): string | undefined => bodyErrorCode(res.body);

/**
 * A non-2xx answer of a data endpoint (/v3/users/self/…):
 * - 401: the bearer token was refused → auth_invalid (the service refreshes once, then retries).
 * - 429: Dexcom's documented answer when the app's hourly quota is spent → rate_limited.
 * - 5xx: temporary.
 * - anything else (400 for a window Dexcom refuses, 403, 404): our request or our app's access is
 *   wrong, not the user's grant, so the sync fails loudly (bad_response) and the connection stays.
 */
export function dataError(res: ProviderResponse, what: string): ProviderError {
  const status = res.status;
  if (status === 401) return new ProviderError('auth_invalid', `Dexcom ${what}: access token refused (401)`, { status });
  if (status === 429) return new ProviderError('rate_limited', `Dexcom ${what}: rate limited (429)`, { status, retryAfterMs: retryAfterMs(res.headers) });
  if (status >= 500) return new ProviderError('temporary', `Dexcom ${what}: server error (${status})`, { status });
  return new ProviderError('bad_response', `Dexcom ${what}: unexpected status ${status}`, { status });
}

/**
 * A non-2xx answer of the token endpoint. Only `invalid_grant` (the code or refresh token is
 * used, expired or revoked: RFC 6749 §5.2) means the user's grant is gone → auth_revoked.
 * `invalid_client` and the like are our configuration, never the user's: expiring every
 * connection for them would be wrong, so they fail the call as bad_response. A 401 here is not
 * auth_invalid: "refresh and retry" cannot cure a refused refresh.
 */
export function tokenError(res: ProviderResponse, what: string): ProviderError {
  const status = res.status;
  const code = oauthErrorCode(res);
  if (code === 'invalid_grant') return new ProviderError('auth_revoked', `Dexcom ${what}: invalid_grant`, { status, providerCode: code });
  if (status === 429) return new ProviderError('rate_limited', `Dexcom ${what}: rate limited (429)`, { status, retryAfterMs: retryAfterMs(res.headers) });
  if (status >= 500) return new ProviderError('temporary', `Dexcom ${what}: server error (${status})`, { status });
  return new ProviderError('bad_response', `Dexcom ${what}: refused (${status}${code ? ` ${code}` : ''})`, { status, providerCode: code });
}
