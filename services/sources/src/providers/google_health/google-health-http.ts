/**
 * How the Google Health API's answers become ProviderError kinds. Google's errors follow its API
 * error model (`{"error": {"code", "message", "status"}}`): 401 UNAUTHENTICATED (the access token),
 * 403 PERMISSION_DENIED (a scope the user did not grant: only the user can fix it), 429
 * RESOURCE_EXHAUSTED, 503 UNAVAILABLE and 504 DEADLINE_EXCEEDED (retry with exponential backoff and
 * jitter, developers.google.com/health/rate-limits), anything else a request retrying cannot fix.
 */
import { sendChecked, statusFailure } from '../kit/http-status';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse } from '../provider.port';

export { apiUrl, bearer } from '../kit/http-status';

/**
 * Google's rate-limit page names no header to wait on: a `Retry-After` (seconds) is honoured when
 * present, else one whole documented minute window is waited (the shortest window it documents).
 */
export function retryAfterMs(headers: Record<string, string>): number {
  const raw = headers['retry-after'];
  if (raw !== undefined && /^\s*\d+\s*$/.test(raw)) return Math.max(1000, Number(raw) * 1000);
  return 60_000;
}

export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  return statusFailure(res, what, { provider: 'Google Health', forbidden: 'permission not granted (403)', retryAfterMs });
}

export const send = (http: ProviderHttp, request: ProviderRequest, what: string): Promise<ProviderResponse> =>
  sendChecked(http, request, (res) => failureOf(res, what));
