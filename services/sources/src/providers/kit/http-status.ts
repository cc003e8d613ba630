/**
 * The HTTP status → ProviderError mapping that Oura, WHOOP and Polar document alike (401 refused
 * token, 403 consent, 429 rate limit, 5xx outage, anything else a request retrying cannot fix), and
 * the small request helpers every JSON/Bearer adapter writes the same way. How long to wait after a
 * 429 differs per provider (each documents its own headers), so the provider passes it in; Strava
 * (Fault bodies), Dexcom (no 403 case) and Withings (status in a 200 envelope) keep their own mapping.
 */
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';
import { isObject } from './json-reading';

export interface StatusMapping {
  /** As users and logs know the provider, e.g. `Oura`. */
  provider: string;
  /** What the provider's 403 means, in its own words (the message after `<provider> <what>: `). */
  forbidden: string;
  /** The wait a 429 asks for, read from the provider's documented headers. */
  retryAfterMs: (headers: Record<string, string>) => number;
}

/** undefined for a 2xx (the caller's to read), else the ProviderError the status means. */
export function statusFailure(res: ProviderResponse, what: string, m: StatusMapping): ProviderError | undefined {
  const { status } = res;
  const at = `${m.provider} ${what}`;
  if (status >= 200 && status < 300) return undefined;
  if (status === 401) return new ProviderError('auth_invalid', `${at}: access token refused (401)`, { status });
  // Only the user can fix a 403: consent_missing (not retried, the connection is not expired).
  if (status === 403) return new ProviderError('consent_missing', `${at}: ${m.forbidden}`, { status });
  if (status === 429) return new ProviderError('rate_limited', `${at}: rate limited`, { status, retryAfterMs: m.retryAfterMs(res.headers) });
  if (status >= 500) return new ProviderError('temporary', `${at}: server error ${status}`, { status });
  // 400/404/422 and any other status: the provider refused a request we built; retrying the same one cannot help.
  return new ProviderError('bad_response', `${at}: unexpected status ${status}`, { status });
}

/** Sends, and throws the failure `failureOf` finds in the answer (the answer otherwise). */
export async function sendChecked(
  http: ProviderHttp,
  request: ProviderRequest,
  failureOf: (res: ProviderResponse) => ProviderError | undefined,
): Promise<ProviderResponse> {
  const res = await http.send(request);
  const failure = failureOf(res);
  if (failure) throw failure;
  return res;
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

export const bearer = (accessToken: string): Record<string, string> => ({ authorization: `Bearer ${accessToken}` });

/** `apiUrl` + a documented path + query (URLSearchParams escapes what must be, e.g. `+` in offsets). */
export function apiUrl(settings: ProviderSettings, path: string, query?: Record<string, string | undefined>): string {
  const url = new URL(settings.apiUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
