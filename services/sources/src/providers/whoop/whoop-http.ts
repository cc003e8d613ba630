/**
 * How WHOOP's HTTP answers become ProviderError kinds, for the data, profile, token and revoke
 * calls. The statuses are those WHOOP's OpenAPI document lists for every v2 route (400, 401, 404,
 * 429, 500) and its "API Rate Limiting" page (headers X-RateLimit-Limit/-Remaining/-Reset).
 */
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';
import { isObject } from './whoop-json';

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
 * Statuses every WHOOP route shares. 2xx is returned for the caller to read; everything else throws.
 * 403 is not documented by WHOOP; it can only mean a scope the user did not grant, which only the
 * user can fix: consent_missing (not retried, the connection is not expired).
 */
export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  const { status } = res;
  if (status >= 200 && status < 300) return undefined;
  if (status === 401) return new ProviderError('auth_invalid', `WHOOP ${what}: access token refused (401)`, { status });
  if (status === 403) return new ProviderError('consent_missing', `WHOOP ${what}: access not granted (403)`, { status });
  if (status === 429) return new ProviderError('rate_limited', `WHOOP ${what}: rate limited`, { status, retryAfterMs: retryAfterMs(res.headers) });
  if (status >= 500) return new ProviderError('temporary', `WHOOP ${what}: server error ${status}`, { status });
  // 400 ("client error constructing the request"), 404 and anything else: retrying the same request cannot help.
  return new ProviderError('bad_response', `WHOOP ${what}: unexpected status ${status}`, { status });
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

export const bearer = (accessToken: string): Record<string, string> => ({ authorization: `Bearer ${accessToken}` });

/** `apiUrl` (…/developer) + a documented v2 path + query. */
export function apiUrl(settings: ProviderSettings, path: string, query?: Record<string, string | undefined>): string {
  const url = new URL(settings.apiUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
