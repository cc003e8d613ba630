/**
 * Withings answers most failures with HTTP 200 and a JSON envelope `{status, body, error}` whose
 * `status` is not 0 (API reference, "Response Status"). This module reads that envelope and turns
 * both HTTP failures and status-in-200 failures into the port's ProviderError kinds, so no other
 * module looks at a raw status code. The documented table only gives *families* of codes
 * ("Authentication failed", "Invalid params", …); the ranges below are that table.
 */
import { ProviderError, ProviderResponse } from '../provider.port';

export type WithingsFamily = 'ok' | 'auth_failed' | 'invalid_params' | 'unauthorized' | 'not_implemented' | 'too_many' | 'timeout' | 'bad_state' | 'error' | 'unknown';

type Range = [from: number, to: number, family: WithingsFamily];

// The Response Status table of the API reference (developer.withings.com/api-reference, section
// Response-status), row by row.
const RANGES: Range[] = [
  [0, 0, 'ok'],
  [100, 102, 'auth_failed'],
  [200, 200, 'auth_failed'],
  [201, 213, 'invalid_params'],
  [214, 214, 'unauthorized'],
  [215, 215, 'error'],
  [216, 218, 'invalid_params'],
  [219, 219, 'error'],
  [220, 221, 'invalid_params'],
  [222, 222, 'error'],
  [223, 223, 'invalid_params'],
  [224, 224, 'error'],
  [225, 225, 'invalid_params'],
  [226, 226, 'error'],
  [227, 230, 'invalid_params'],
  [231, 233, 'error'],
  [234, 236, 'invalid_params'],
  [237, 237, 'error'],
  [238, 238, 'invalid_params'],
  [240, 252, 'invalid_params'],
  [253, 253, 'error'],
  [254, 254, 'invalid_params'],
  [255, 259, 'error'],
  [260, 267, 'invalid_params'],
  [268, 270, 'error'],
  [271, 272, 'invalid_params'],
  [273, 274, 'error'],
  [275, 276, 'invalid_params'],
  [277, 277, 'unauthorized'],
  [278, 282, 'error'],
  [283, 288, 'invalid_params'],
  [289, 289, 'error'],
  [290, 290, 'invalid_params'],
  [291, 292, 'error'],
  [293, 295, 'invalid_params'],
  [296, 296, 'error'],
  [297, 297, 'invalid_params'],
  [298, 298, 'error'],
  [300, 304, 'invalid_params'],
  [305, 320, 'error'],
  [321, 321, 'invalid_params'],
  [322, 322, 'error'],
  [323, 353, 'invalid_params'],
  [370, 375, 'error'],
  [380, 382, 'invalid_params'],
  [383, 383, 'error'],
  [391, 391, 'error'],
  [400, 400, 'invalid_params'],
  [401, 401, 'auth_failed'],
  [402, 402, 'error'],
  [501, 511, 'invalid_params'],
  [516, 521, 'error'],
  [522, 522, 'timeout'],
  [523, 523, 'invalid_params'],
  [524, 524, 'bad_state'],
  [525, 531, 'error'],
  [532, 532, 'invalid_params'],
  [533, 533, 'error'],
  [601, 601, 'too_many'],
  [602, 602, 'error'],
  [700, 700, 'error'],
  [1051, 1054, 'error'],
  [2551, 2552, 'error'],
  [2553, 2553, 'unauthorized'],
  [2554, 2554, 'not_implemented'],
  [2555, 2555, 'unauthorized'],
  [2556, 2559, 'error'],
  [3000, 3016, 'error'],
  [3017, 3019, 'invalid_params'],
  [3020, 3024, 'error'],
  [5000, 5006, 'error'],
  [6000, 6000, 'error'],
  [6010, 6011, 'error'],
  [9000, 9000, 'error'],
  [10000, 10000, 'error'],
];

export function statusFamily(status: number): WithingsFamily {
  for (const [from, to, family] of RANGES) if (status >= from && status <= to) return family;
  return 'unknown';
}

/** The docs give no Retry-After for status 601; the documented limit is 120 requests a minute, so one minute. */
export const RATE_LIMIT_WAIT_MS = 60_000;

/** Which call the envelope answers: a refusal means different things for a data call and a refresh. */
export type CallKind = 'data' | 'token';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function retryAfterMs(headers: Record<string, string>): number | undefined {
  const raw = headers['retry-after'];
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** HTTP-level failures, before any body is read. */
function httpFailure(res: ProviderResponse, what: string, kind: CallKind): ProviderError | undefined {
  const status = res.status;
  if (status >= 200 && status < 300) return undefined;
  if (status === 429) return new ProviderError('rate_limited', `${what}: HTTP 429`, { status, retryAfterMs: retryAfterMs(res.headers) ?? RATE_LIMIT_WAIT_MS });
  if (status >= 500) return new ProviderError('temporary', `${what}: HTTP ${status}`, { status });
  if (status === 401 || status === 403) {
    return new ProviderError(kind === 'token' ? 'auth_revoked' : 'auth_invalid', `${what}: HTTP ${status}`, { status });
  }
  return new ProviderError('bad_response', `${what}: HTTP ${status}`, { status });
}

/** A non-zero body status as a ProviderError (the message carries Withings' own `error` text). */
export function statusError(status: number, error: unknown, what: string, kind: CallKind): ProviderError {
  const family = statusFamily(status);
  const detail = typeof error === 'string' ? `: ${error.slice(0, 200)}` : '';
  const msg = `${what}: Withings status ${status} (${family})${detail}`;
  const details = { status: 200, providerCode: status };
  switch (family) {
    case 'too_many':
      return new ProviderError('rate_limited', msg, { ...details, retryAfterMs: RATE_LIMIT_WAIT_MS });
    case 'timeout':
    case 'bad_state':
    case 'error':
      // "An error occurred … please retry": never a reason to expire a connection.
      return new ProviderError('temporary', msg, details);
    case 'auth_failed':
      // On a data call the access token was refused (refresh once, then retry); on the token call
      // the refresh token itself was refused, which no retry can fix.
      return new ProviderError(kind === 'token' ? 'auth_revoked' : 'auth_invalid', msg, details);
    case 'invalid_params':
      // The token call's only params are the code/refresh token and our client credentials: Withings
      // answers "Invalid Params: invalid refresh_token/code" when the grant is gone.
      return new ProviderError(kind === 'token' ? 'auth_revoked' : 'bad_response', msg, details);
    case 'unauthorized':
      return new ProviderError(kind === 'token' ? 'auth_revoked' : 'consent_missing', msg, details);
    default:
      return new ProviderError('bad_response', msg, details);
  }
}

/**
 * Reads a Withings answer: HTTP failures, then the JSON envelope, then its status. Returns the
 * `body` object of a successful answer; throws ProviderError for everything else (never a TypeError).
 */
export function readEnvelope(res: ProviderResponse, what: string, kind: CallKind): Record<string, unknown> {
  const http = httpFailure(res, what, kind);
  if (http) throw http;
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    throw new ProviderError('bad_response', `${what}: the answer is not JSON`, { status: res.status });
  }
  if (!isObject(parsed) || typeof parsed.status !== 'number' || !Number.isInteger(parsed.status)) {
    throw new ProviderError('bad_response', `${what}: the answer has no integer status`, { status: res.status });
  }
  if (parsed.status !== 0) throw statusError(parsed.status, parsed.error, what, kind);
  // A successful answer with no body (notify subscribe/revoke answer `body: {}` or nothing useful).
  if (parsed.body === undefined || (Array.isArray(parsed.body) && parsed.body.length === 0)) return {};
  if (!isObject(parsed.body)) throw new ProviderError('bad_response', `${what}: body is not an object`, { status: res.status });
  return parsed.body;
}
