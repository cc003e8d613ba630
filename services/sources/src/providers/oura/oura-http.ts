/**
 * How Oura's HTTP answers become ProviderError kinds, in one place for the data, profile, token and
 * webhook-subscription calls. The mapping follows Oura's "HTTP Response Codes" and "Rate Limits"
 * sections of the API v2 OpenAPI document (see README.md).
 */
import { statusFailure, sendChecked } from '../kit/http-status';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';

export { apiUrl, bearer, oauthErrorCode } from '../kit/http-status';

/**
 * Oura documents `Retry-After` in integer seconds on every 429. When it is missing or unreadable we
 * wait one whole documented window (5 minutes) rather than hammer a limit we cannot see.
 */
const DEFAULT_RETRY_AFTER_MS = 5 * 60_000;

export function retryAfterMs(headers: Record<string, string>): number {
  const raw = headers['retry-after'];
  if (raw !== undefined && /^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const window = headers['x-ratelimit-window'];
  if (window !== undefined && /^\s*\d+\s*$/.test(window)) return Number(window) * 1000;
  return DEFAULT_RETRY_AFTER_MS;
}

/**
 * Statuses every Oura endpoint shares. 2xx is returned for the caller to read; everything else
 * throws. 403 is Oura's "scope not granted or the user's Oura membership expired": only the user can
 * fix it, so it is consent_missing (not retried, the connection is not expired).
 */
export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  return statusFailure(res, what, { provider: 'Oura', forbidden: 'scope not granted or membership expired (403)', retryAfterMs });
}

export const send = (http: ProviderHttp, request: ProviderRequest, what: string): Promise<ProviderResponse> =>
  sendChecked(http, request, (res) => failureOf(res, what));

/** The webhook subscription routes authenticate the app, not a user: `x-client-id` + `x-client-secret`. */
export const clientHeaders = (settings: ProviderSettings): Record<string, string> => ({
  'x-client-id': settings.clientId,
  'x-client-secret': settings.clientSecret,
});
