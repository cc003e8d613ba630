/**
 * How Polar's HTTP answers become ProviderError kinds, in one place for every call, after the
 * AccessLink v3 reference ("Rate limiting", "Making requests", each endpoint's Responses table).
 */
import { statusFailure, sendChecked } from '../kit/http-status';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';

export { apiUrl } from '../kit/http-status';

/** The short-term window is 15 minutes: without a readable reset we wait one whole window. */
const DEFAULT_RETRY_AFTER_MS = 15 * 60_000;

const pair = (raw: string | undefined): [number, number] | undefined => {
  const m = raw === undefined ? null : /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(raw);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
};

/**
 * Polar documents `RateLimit-Usage`, `RateLimit-Limit` and `RateLimit-Reset`, each "short term,
 * long term" (reset in seconds). The reset of the exhausted window is the wait: the long-term one
 * when its usage reached its limit, else the short-term one. `Retry-After` is not documented but is
 * honoured first when present (a proxy in front of Polar may add it).
 */
export function retryAfterMs(headers: Record<string, string>): number {
  const after = headers['retry-after'];
  if (after !== undefined && /^\s*\d+\s*$/.test(after)) return Number(after) * 1000;
  const reset = pair(headers['ratelimit-reset']);
  if (!reset) return DEFAULT_RETRY_AFTER_MS;
  const usage = pair(headers['ratelimit-usage']);
  const limit = pair(headers['ratelimit-limit']);
  const longExhausted = usage && limit && usage[1] >= limit[1];
  return (longExhausted ? reset[1] : reset[0]) * 1000;
}

/**
 * Statuses every AccessLink endpoint shares. 2xx is the caller's to read. 401 is a refused token;
 * 403 is "User has not accepted all mandatory consents" (only the user can fix it, at
 * account.polar.com: consent_missing, not retried); 429 the rate limit; 5xx an outage. Anything else
 * (400 "invalid date", 404 on a route we built…) is a request Polar refuses, which retrying cannot fix.
 */
export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  const forbidden = "the user has not accepted all of Polar's mandatory consents (403); they can at account.polar.com";
  return statusFailure(res, what, { provider: 'Polar', forbidden, retryAfterMs });
}

export const send = (http: ProviderHttp, request: ProviderRequest, what: string): Promise<ProviderResponse> =>
  sendChecked(http, request, (res) => failureOf(res, what));

/** AccessLink answers XML too; we always ask for JSON (so not the kit's plain `bearer`). */
export const bearer = (accessToken: string): Record<string, string> => ({ authorization: `Bearer ${accessToken}`, accept: 'application/json' });

/** Client-level routes (webhooks) and the token endpoint: HTTP Basic with client_id:client_secret. */
export const basic = (settings: ProviderSettings): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`,
  accept: 'application/json',
});
