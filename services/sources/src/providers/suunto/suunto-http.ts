/**
 * Suunto's data calls and how their answers become ProviderError kinds. Every call carries the
 * user's JWT access token and the application's API Zone subscription key ("How to start": "add the
 * subscription key to each request", header `Ocp-Apim-Subscription-Key` in every code sample). The
 * statuses are those the Workout API lists (400, 403, 404) and what its API gateway answers (401 for
 * a refused token or key, 429 with Retry-After, 5xx).
 */
import { statusFailure } from '../kit/http-status';
import { isObject } from '../kit/json-reading';
import { retryAfterMs as readRetryAfter } from '../kit/rate-limit-headers';
import { ProviderError, ProviderHttp, ProviderResponse, ProviderSettings } from '../provider.port';

export { apiUrl } from '../kit/http-status';

export const SUBSCRIPTION_KEY_HEADER = 'Ocp-Apim-Subscription-Key';

/** Nothing readable on a 429: wait a minute (no Suunto window is documented). */
const DEFAULT_RETRY_AFTER_MS = 60_000;

/** The subscription key from WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY (the service offers Suunto only with it). */
export function subscriptionKey(settings: ProviderSettings): string {
  const key = settings.extra?.SUBSCRIPTION_KEY;
  if (!key) throw new ProviderError('bad_request', 'Suunto: no subscription key is configured (WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY)');
  return key;
}

/**
 * The headers of every data call. The Workout API's samples send the token as `Authorization:
 * <token>`; the Bearer scheme (RFC 6750) is what the gateway reads for a JWT, and what we send.
 */
export const dataHeaders = (settings: ProviderSettings, accessToken: string): Record<string, string> => ({
  authorization: `Bearer ${accessToken}`,
  [SUBSCRIPTION_KEY_HEADER.toLowerCase()]: subscriptionKey(settings),
});

export const retryAfterMs = (headers: Record<string, string>): number => Math.max(1000, readRetryAfter(headers['retry-after'], Date.now()) ?? DEFAULT_RETRY_AFTER_MS);

/**
 * The API gateway's own 401 for a missing or wrong subscription key (`{"statusCode": 401, "message":
 * "Access denied due to invalid subscription key…"}`): our configuration, never the user's token.
 */
export function refusedKey(res: ProviderResponse): boolean {
  if (res.status !== 401) return false;
  try {
    const body: unknown = JSON.parse(res.body);
    return isObject(body) && typeof body.message === 'string' && /subscription key/i.test(body.message);
  } catch {
    return false;
  }
}

/**
 * 2xx is the caller's to read. A refused subscription key is temporary: retried with backoff until
 * the operator fixes the key, and never read as a refused token (which, after a refresh, would
 * expire every connection). 403 is the Workout API's "Forbidden": the user's grant does not cover
 * the data (only the user can change it: consent_missing). Anything else as the kit reads it.
 */
export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  if (refusedKey(res)) return new ProviderError('temporary', `Suunto ${what}: the API gateway refused our subscription key (401); check WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY`, { status: 401 });
  return statusFailure(res, what, { provider: 'Suunto', forbidden: 'access not granted (403)', retryAfterMs });
}

/** A GET of a documented data path; the answer when it is a success, else its ProviderError. */
export async function getData(http: ProviderHttp, settings: ProviderSettings, accessToken: string, url: string, what: string): Promise<ProviderResponse> {
  const res = await http.send({ method: 'GET', url, headers: dataHeaders(settings, accessToken) });
  const failure = failureOf(res, what);
  if (failure) throw failure;
  return res;
}
