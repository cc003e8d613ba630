/**
 * How Strava's HTTP answers become ProviderError kinds, in one place for the data, token and
 * push-subscription calls. Statuses after "HTTP Status Codes" (developers.strava.com/docs), error
 * bodies after the swagger `Fault` model (`{message, errors: [{resource, field, code}]}`), limits
 * after "Rate Limits" (developers.strava.com/docs/rate-limits). See README.md.
 */
import { sendChecked } from '../kit/http-status';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse } from '../provider.port';
import { isObject, parseLossless } from './strava-json';

export { apiUrl, bearer } from '../kit/http-status';

const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

export interface FaultError {
  resource?: string;
  field?: string;
  code?: string;
}

/** The `errors` of a Strava Fault body; [] when the body is not one. */
export function faultErrors(body: string): FaultError[] {
  try {
    const parsed = parseLossless(body);
    if (!isObject(parsed) || !Array.isArray(parsed.errors)) return [];
    return parsed.errors.filter(isObject).map((e) => ({
      ...(typeof e.resource === 'string' ? { resource: e.resource } : {}),
      ...(typeof e.field === 'string' ? { field: e.field } : {}),
      ...(typeof e.code === 'string' ? { code: e.code } : {}),
    }));
  } catch {
    return [];
  }
}

/** `resource:field:code` of the first Fault error, for logs and ProviderError.details.providerCode. */
export const faultCode = (errors: FaultError[]): string | undefined =>
  errors.length ? [errors[0].resource ?? '', errors[0].field ?? '', errors[0].code ?? ''].join(':') : undefined;

/** Both values of a `15-minute,daily` header pair, when readable. */
function pair(value: string | undefined): [number, number] | undefined {
  const m = value === undefined ? null : /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(value);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/**
 * How long to wait after a 429. Strava documents no Retry-After; it resets the 15-minute limit "at
 * natural 15-minute intervals corresponding to 0, 15, 30 and 45 minutes after the hour" and the
 * daily limit "at midnight UTC". So: Retry-After when a proxy sends one; else midnight UTC when a
 * daily usage (overall or read) has reached its limit; else the next quarter hour.
 */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number {
  const raw = headers['retry-after'];
  if (raw !== undefined && /^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  if (raw !== undefined && !Number.isNaN(Date.parse(raw))) return Math.max(1000, Date.parse(raw) - now);
  const dailySpent = [
    [headers['x-ratelimit-limit'], headers['x-ratelimit-usage']],
    [headers['x-readratelimit-limit'], headers['x-readratelimit-usage']],
  ].some(([limit, usage]) => {
    const l = pair(limit);
    const u = pair(usage);
    return l !== undefined && u !== undefined && u[1] >= l[1];
  });
  const until = dailySpent ? (Math.floor(now / DAY_MS) + 1) * DAY_MS : (Math.floor(now / QUARTER_MS) + 1) * QUARTER_MS;
  return Math.max(1000, until - now);
}

/** Strava's 401 for a token that lacks a scope: `{"resource":"AccessToken","field":"activity:read_permission","code":"missing"}`. */
const missingPermission = (errors: FaultError[]) => errors.some((e) => e.code === 'missing' && /_permission$/.test(e.field ?? ''));

/**
 * Statuses every Strava endpoint shares (not the kit's statusFailure: Strava's Fault body decides
 * between two 401s and names a providerCode). 2xx is returned for the caller to read; everything else
 * throws. A 401 that names a missing permission is the user's choice on the consent page (they
 * unticked activity access): retrying or refreshing cannot help, only a new consent can.
 */
export function failureOf(res: ProviderResponse, what: string, now = Date.now()): ProviderError | undefined {
  const { status } = res;
  if (status >= 200 && status < 300) return undefined;
  const errors = faultErrors(res.body);
  const providerCode = faultCode(errors);
  const details = { status, ...(providerCode ? { providerCode } : {}) };
  if (status === 401 && missingPermission(errors)) return new ProviderError('consent_missing', `Strava ${what}: the athlete did not grant activity access (401)`, details);
  if (status === 401) return new ProviderError('auth_invalid', `Strava ${what}: access token refused (401)`, details);
  if (status === 403) return new ProviderError('consent_missing', `Strava ${what}: forbidden (403)`, details);
  if (status === 429) return new ProviderError('rate_limited', `Strava ${what}: rate limit exceeded`, { ...details, retryAfterMs: retryAfterMs(res.headers, now) });
  if (status >= 500) return new ProviderError('temporary', `Strava ${what}: server error ${status}`, details);
  // 400/404 and anything else: Strava refused a request we built; sending it again cannot help.
  return new ProviderError('bad_response', `Strava ${what}: unexpected status ${status}`, details);
}

export const send = (http: ProviderHttp, request: ProviderRequest, what: string): Promise<ProviderResponse> =>
  sendChecked(http, request, (res) => failureOf(res, what));
