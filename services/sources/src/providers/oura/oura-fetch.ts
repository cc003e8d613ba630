/**
 * One page of an Oura document collection (daily_activity, sleep, workout) over a UTC window.
 *
 * Oura filters these collections by `day`, the user's local calendar day, with `start_date` and
 * `end_date`. A local day can start up to 14 hours before or 12 hours after the UTC one, and the
 * documents do not say whether `end_date` is inclusive, so the query asks one day more on each side
 * and the records are then kept only when their start_time falls in [window.start, window.end):
 * consecutive windows never lose a document and never return one twice.
 */
import type { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, send } from './oura-http';
import { DAY_MS, Json, readCollection, utcDay } from './oura-json';
import { mapDailyActivity, mapSleep, mapWorkout } from './oura-mapping';

export const DOCUMENT_COLLECTIONS: Record<string, (doc: Json) => IngestRecord> = {
  daily_activity: mapDailyActivity,
  sleep: mapSleep,
  workout: mapWorkout,
};

export async function fetchDocuments(
  http: ProviderHttp,
  settings: ProviderSettings,
  accessToken: string,
  resource: string,
  window: FetchWindow,
): Promise<FetchResult> {
  const map = DOCUMENT_COLLECTIONS[resource];
  const start = window.start.getTime();
  const end = window.end.getTime();
  const url = apiUrl(settings, `/v2/usercollection/${resource}`, {
    start_date: utcDay(start - DAY_MS),
    end_date: utcDay(end + DAY_MS),
    // Oura's next_token continues the same query, so the dates are sent again with it.
    next_token: window.cursor,
  });
  const res = await send(http, { method: 'GET', url, headers: bearer(accessToken) }, resource);
  const { data, nextToken } = readCollection(res.body, resource);
  const records = data
    .map(map)
    .filter((r) => {
      const t = Date.parse(r.start_time);
      return t >= start && t < end;
    });
  return nextToken ? { records, nextCursor: nextToken } : { records };
}
