/**
 * Data points of a Daily record type (daily-resting-heart-rate, daily-oxygen-saturation) over whole
 * civil days: `GET /v4/users/me/dataTypes/{dataType}/dataPoints` (users.dataTypes.dataPoints.list)
 * with `filter={filter name}.date >= "YYYY-MM-DD" AND {filter name}.date < "YYYY-MM-DD"`, the field
 * the Filter data guide gives Daily records (`{dataType}.date`, e.g. `daily_heart_rate_variability.date`)
 * and the two operators it allows. Each point carries its day as a `date` ({year, month, day}, "in
 * the user's timezone"); the reference names no data point id for them, so the day is their identity.
 */
import type { ProviderHttp, ProviderSettings } from '../provider.port';
import { listUrl } from './google-health-fetch';
import { bearer, send } from './google-health-http';
import { badResponse, Json, optionalNumber, readDataPoints, requireObject, utcDay } from './google-health-json';

const MAX_PAGES = 5;
/** A window is at most a month of days: one page of 1,000 holds it whatever the number of sources. */
const PAGE_SIZE = 1000;

/** A google.type.Date (`{year, month, day}`) as `YYYY-MM-DD`; anything that is no calendar date is bad_response. */
export function readCivilDate(o: unknown, what: string): string {
  const date = requireObject(o, what);
  const [y, m, d] = ['year', 'month', 'day'].map((k) => optionalNumber(date, k, what));
  if (!y || !m || !d) throw badResponse(`${what} is not a calendar date`);
  const ms = Date.UTC(y, m - 1, d);
  if (new Date(ms).getUTCDate() !== d || new Date(ms).getUTCMonth() !== m - 1) throw badResponse(`${what} is not a calendar date`);
  return utcDay(ms);
}

/**
 * Each day's value (the point's `field` object) for the days [fromDay, toDay) given as UTC-midnight
 * milliseconds. The raw list holds every source's point: the first listed for a day is kept.
 */
export async function listDailyPoints(
  http: ProviderHttp,
  settings: ProviderSettings,
  accessToken: string,
  type: { urlType: string; filterName: string; field: string },
  fromDay: number,
  toDay: number,
): Promise<Map<string, Json>> {
  const f = `${type.filterName}.date`;
  const filter = `${f} >= "${utcDay(fromDay)}" AND ${f} < "${utcDay(toDay)}"`;
  const days = new Map<string, Json>();
  let pageToken: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) throw badResponse(`${type.urlType}: more than ${MAX_PAGES} pages for one window`);
    const res = await send(http, { method: 'GET', url: listUrl(settings, type.urlType, filter, PAGE_SIZE, pageToken), headers: bearer(accessToken) }, type.urlType);
    const { points, nextPageToken } = readDataPoints(res.body, type.urlType);
    for (const [i, point] of points.entries()) {
      const what = `${type.urlType}.dataPoints[${i}]`;
      const value = requireObject(point[type.field], `${what}.${type.field}`);
      const day = readCivilDate(value.date, `${what}.${type.field}.date`);
      if (!days.has(day)) days.set(day, value);
    }
    pageToken = nextPageToken;
    if (!pageToken) return days;
  }
}
