/**
 * How Garmin's HTTP answers become ProviderError kinds, for every Health API call, and the checks
 * a URL must pass before we send the user's token to it. The Health API documents 401 for a token
 * Garmin no longer accepts ("any attempts to request data with that UAT will be rejected as
 * unauthorized"), 409 for a backfill already asked for, and 429 when a limit is spent; it names no
 * rate-limit headers, so a standard `Retry-After` is honoured when present and otherwise the
 * one-minute window is waited out.
 */
import { retryAfterMs } from '../kit/rate-limit-headers';
import { statusFailure, sendChecked } from '../kit/http-status';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';

export { apiUrl, bearer } from '../kit/http-status';

const ONE_MINUTE_MS = 60_000;

/**
 * 2xx is the caller's; 401 a refused token; 403 a permission the user withdrew in Garmin Connect
 * (only they can give it back: consent_missing); 429 the limit; 5xx an outage; anything else a
 * request Garmin refuses, which retrying cannot fix.
 */
export function failureOf(res: ProviderResponse, what: string): ProviderError | undefined {
  return statusFailure(res, what, {
    provider: 'Garmin',
    forbidden: 'the user withdrew this permission in Garmin Connect (403)',
    retryAfterMs: (headers) => retryAfterMs(headers['retry-after'], Date.now()) ?? ONE_MINUTE_MS,
  });
}

export const send = (http: ProviderHttp, request: ProviderRequest, what: string): Promise<ProviderResponse> =>
  sendChecked(http, request, (res) => failureOf(res, what));

/** The Health API's data paths: `/wellness-api/rest/<summary type>`. */
export const REST_PATH = '/wellness-api/rest';

/**
 * A ping's `callbackURL` is where we send the user's access token, so it must be Garmin's own API
 * (the origin of `_API_URL`: https://apis.garmin.com) and the documented pull path of the summary
 * type it was listed under, with the upload range the ping documents. Anything else would let
 * whoever posts to our webhook make us fetch (with a user's token) any URL: refused as a forgery.
 */
export function checkedCallbackUrl(settings: ProviderSettings, resource: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderError('bad_signature', 'Garmin ping: callbackURL is not a URL');
  }
  const api = new URL(settings.apiUrl);
  if (url.origin !== api.origin || url.username || url.password) throw new ProviderError('bad_signature', `Garmin ping: callbackURL is not on ${api.origin}`);
  const base = api.pathname.replace(/\/+$/, '');
  if (url.pathname !== `${base}${REST_PATH}/${resource}`) throw new ProviderError('bad_signature', `Garmin ping: callbackURL is not the ${resource} pull path`);
  const start = url.searchParams.get('uploadStartTimeInSeconds');
  const end = url.searchParams.get('uploadEndTimeInSeconds');
  if (!start || !end || !/^\d{1,12}$/.test(start) || !/^\d{1,12}$/.test(end) || Number(end) < Number(start)) {
    throw new ProviderError('bad_request', 'Garmin ping: callbackURL has no readable upload range');
  }
  return url;
}
