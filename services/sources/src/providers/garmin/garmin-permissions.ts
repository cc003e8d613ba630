/**
 * The user's permissions as Garmin answers them to the user's own token: `GET
 * /wellness-api/rest/user/permissions` → a JSON list such as `["ACTIVITY_EXPORT", "HEALTH_EXPORT",
 * "HISTORICAL_DATA_EXPORT"]` (the Start Guide's "User Permissions"; integration guides quote both a
 * bare list and `{"permissions": [...]}`, so both are read). A `userPermissionsChange` notification
 * is unsigned, so its own list is never taken: this answer is.
 */
import { ProviderError, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, REST_PATH, send } from './garmin-http';
import { isObject } from '../kit/json-reading';
import { parseJson } from './garmin-json';

/**
 * What the summaries read need: activities come with ACTIVITY_EXPORT, every other type with
 * HEALTH_EXPORT, and history (backfill) with HISTORICAL_DATA_EXPORT.
 */
export const NEEDED_PERMISSIONS = ['ACTIVITY_EXPORT', 'HEALTH_EXPORT', 'HISTORICAL_DATA_EXPORT'] as const;

export async function fetchMissingPermissions(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string[]> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, `${REST_PATH}/user/permissions`), headers: bearer(accessToken) }, 'user permissions');
  const body = parseJson(res.body, 'user permissions', res.status);
  const list = Array.isArray(body) ? body : isObject(body) ? body.permissions : undefined;
  if (!Array.isArray(list) || list.length > 100 || !list.every((p) => typeof p === 'string')) {
    throw new ProviderError('bad_response', 'Garmin: user/permissions is not a list of permission names', { status: res.status });
  }
  const granted = new Set(list as string[]);
  return NEEDED_PERMISSIONS.filter((p) => !granted.has(p));
}
