/**
 * How WHOOP's HTTP answers become ProviderError kinds, for the data, profile, token and revoke
 * calls. The statuses are those WHOOP's OpenAPI document lists for every v2 route (400, 401, 404,
 * 429, 500) and its "API Rate Limiting" page (headers X-RateLimit-Limit/-Remaining/-Reset).
 */
import { statusFailure } from '../kit/http-status';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse } from '../provider.port';

export { apiUrl, bearer, oauthErrorCode } from '../kit/http-status';

/** Nothing readable on a 429: wait one whole documented minute window. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
const SECONDS = /^\s*\d+(\.\d+)?\s*$/;

/**
 * WHOOP documents `X-RateLimit-Reset`, the seconds until the remaining count resets. `Retry-After`
 * is not documented but is read first when present (seconds), as it is the HTTP standard.
 */
export function retryAfterMs(headers: Record<string, string>): number {
  for (const name of ['retry-after', 'x-ratelimit-reset']) {
    const raw = headers[name];
    if (raw !== undefined && SECONDS.test(raw)) return Math.max(1000, Math.ceil(Number(raw) * 1000));
  }
  return DEFAULT_RETRY_AFTER_MS;
}

/**
 * Statuses every WHOOP route shares. 2xx is returned for the caller to read; everything else throws.
 * 403 is not documented by WHOOP; it can only mean a scope the user did not grant, which only the
 * user can fix: consent_missing (not retried, the connection is not expired).
 */
export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  // 400 ("client error constructing the request"), 404 and anything else: bad_response, retrying cannot help.
  return statusFailure(res, what, { provider: 'WHOOP', forbidden: 'access not granted (403)', retryAfterMs });
}

/** The answer when it is a success, else its ProviderError. */
export function check(res: ProviderResponse, what: string): ProviderResponse {
  const failure = failureOf(res, what);
  if (failure) throw failure;
  return res;
}

export async function send(http: ProviderHttp, request: ProviderRequest, what: string): Promise<ProviderResponse> {
  return check(await http.send(request), what);
}
