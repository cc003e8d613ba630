/**
 * One page of a data type's raw data points over a UTC window:
 * `GET /v4/users/me/dataTypes/{dataType}/dataPoints?filter=…&pageSize=…&pageToken=…`
 * (users.dataTypes.dataPoints.list). The filter is AIP-160 on the data type's time field, `>=` the
 * window's start and `<` its end (the two operators the reference allows), so consecutive windows
 * never return a data point twice and never lose one.
 */
import type { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, send } from './google-health-http';
import { Json, readDataPoints } from './google-health-json';
import { mapBodyFat, mapExercise, mapSleep, mapWeight } from './google-health-mapping';

export interface PointCollection {
  /** The data type as the URL spells it (kebab-case; the resource name is the filter's snake_case). */
  urlType: string;
  /** The filter field: `<filter name>.interval.start_time` or `<filter name>.sample_time.physical_time`. */
  filterField: string;
  /** Exercise and sleep pages hold at most 25 (reconcile/list reference); samples up to 10,000. */
  pageSize: number;
  map: (point: Json) => IngestRecord;
}

export const COLLECTIONS: Record<string, PointCollection> = {
  exercise: { urlType: 'exercise', filterField: 'exercise.interval.start_time', pageSize: 25, map: mapExercise },
  sleep: { urlType: 'sleep', filterField: 'sleep.interval.start_time', pageSize: 25, map: mapSleep },
  weight: { urlType: 'weight', filterField: 'weight.sample_time.physical_time', pageSize: 1000, map: mapWeight },
  body_fat: { urlType: 'body-fat', filterField: 'body_fat.sample_time.physical_time', pageSize: 1000, map: mapBodyFat },
};

const rfc3339 = (d: Date | number) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const timeFilter = (field: string, start: Date | number, end: Date | number): string =>
  `${field} >= "${rfc3339(start)}" AND ${field} < "${rfc3339(end)}"`;

export function listUrl(settings: ProviderSettings, dataType: string, filter: string, pageSize: number, pageToken?: string): string {
  return apiUrl(settings, `/v4/users/me/dataTypes/${dataType}/dataPoints`, { filter, pageSize: String(pageSize), pageToken });
}

export async function fetchCollection(http: ProviderHttp, settings: ProviderSettings, accessToken: string, dataType: string, window: FetchWindow): Promise<FetchResult> {
  const c = COLLECTIONS[dataType];
  const url = listUrl(settings, c.urlType, timeFilter(c.filterField, window.start, window.end), c.pageSize, window.cursor);
  const res = await send(http, { method: 'GET', url, headers: bearer(accessToken) }, c.urlType);
  const { points, nextPageToken } = readDataPoints(res.body, c.urlType);
  const records = points.map(c.map);
  return nextPageToken ? { records, nextCursor: nextPageToken } : { records };
}
