/**
 * How Oura's HTTP answers become ProviderError kinds, in one place for the data, profile, token and
 * webhook-subscription calls. The mapping follows Oura's "HTTP Response Codes" and "Rate Limits"
 * sections of the API v2 OpenAPI document (see README.md).
 */
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';
import { isObject } from './oura-json';

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

/** The OAuth `error` code of a token-endpoint answer (RFC 6749 §5.2), when the body has one. */
export function oauthErrorCode(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) && typeof parsed.error === 'string' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Statuses every Oura endpoint shares. 2xx is returned for the caller to read; everything else
 * throws. 403 is Oura's "scope not granted or the user's Oura membership expired": only the user can
 * fix it, so it is consent_missing (not retried, the connection is not expired).
 */
export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  const { status } = res;
  if (status >= 200 && status < 300) return undefined;
  if (status === 401) return new ProviderError('auth_invalid', `Oura ${what}: access token refused (401)`, { status });
  if (status === 403) return new ProviderError('consent_missing', `Oura ${what}: scope not granted or membership expired (403)`, { status });
  if (status === 429) return new ProviderError('rate_limited', `Oura ${what}: rate limited`, { status, retryAfterMs: retryAfterMs(res.headers) });
  if (status >= 500) return new ProviderError('temporary', `Oura ${what}: server error ${status}`, { status });
  // 400/404/422 and any other status: Oura refused a request we built; retrying the same one cannot help.
  return new ProviderError('bad_response', `Oura ${what}: unexpected status ${status}`, { status });
}

export async function send(http: ProviderHttp, request: ProviderRequest, what: string): Promise<ProviderResponse> {
  const res = await http.send(request);
  const failure = failureOf(res, what);
  if (failure) throw failure;
  return res;
}

export const bearer = (accessToken: string): Record<string, string> => ({ authorization: `Bearer ${accessToken}` });

/** The webhook subscription routes authenticate the app, not a user: `x-client-id` + `x-client-secret`. */
export const clientHeaders = (settings: ProviderSettings): Record<string, string> => ({
  'x-client-id': settings.clientId,
  'x-client-secret': settings.clientSecret,
});

/** `apiUrl` + a documented path + query (Oura wants `+` in offsets escaped, which URLSearchParams does). */
export function apiUrl(settings: ProviderSettings, path: string, query?: Record<string, string | undefined>): string {
  const url = new URL(settings.apiUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
