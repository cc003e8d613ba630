/**
 * Daily activity (`GET /v3/users/activities/?from=…&to=…`, non-transactional, beta since
 * 18.08.2025): one summary per day, `from` no older than 365 days and at most 28 days between `from`
 * and `to`. A summary has no id: its day is its key (`/v3/users/activities/{date}`), so log_id is
 * `activity:<date>`.
 *
 * The documents disagree on the times: the schema says start_time/end_time are "in UTC", the example
 * (`2025-08-13T08:15:30` … `2025-08-13T23:59:59`) looks like device-local time, and the deprecated
 * transactional resource says "no timezone information is available". We follow the schema (UTC
 * unless the string carries an offset) and claim no utc_offset: the day (log_id) is the same under
 * either reading, only the record's hours would shift.
 */
import type { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, send } from './polar-http';
import { badResponse, Json, optionalNumber, parseJson, requireArray, requireObject, requireString } from './polar-json';
import { inWindow, metric, SOURCE } from './polar-records';
import { DAY_MS, instantUtcUnlessOffset, requireDay, utcDay, utcTime } from './polar-time';

/** The longest range one request may ask (28 days between from and to), less the day of margin each side. */
export const ACTIVITY_WINDOW_DAYS = 26;
const OLDEST_DAYS = 364;

/**
 * One request per at most ACTIVITY_WINDOW_DAYS; a longer window continues with a cursor (the start
 * of the rest, in ms) rather than asking Polar for more than it allows.
 */
export async function fetchActivities(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow, nowMs: number = Date.now()): Promise<FetchResult> {
  const partStart = window.cursor && /^\d+$/.test(window.cursor) ? Math.max(Number(window.cursor), window.start.getTime()) : window.start.getTime();
  const partEnd = Math.min(window.end.getTime(), partStart + ACTIVITY_WINDOW_DAYS * DAY_MS);
  const part = { start: new Date(partStart), end: new Date(partEnd) };
  const more = partEnd < window.end.getTime() ? { nextCursor: String(partEnd) } : {};
  const oldest = nowMs - OLDEST_DAYS * DAY_MS;
  if (partEnd <= oldest || partEnd <= partStart) return { records: [], ...more };
  // "to" is not said to be inclusive and summaries may sit on either side of a UTC day: one day more each side.
  const url = apiUrl(settings, '/v3/users/activities/', { from: utcDay(Math.max(partStart - DAY_MS, oldest)), to: utcDay(partEnd + DAY_MS) });
  const res = await send(http, { method: 'GET', url, headers: bearer(accessToken) }, 'activities');
  if (res.status === 204 || res.body.trim() === '') return { records: [], ...more };
  const list = requireArray(parseJson(res.body, 'activities', res.status), 'activities');
  return { records: inWindow(list.map((a, i) => mapActivity(requireObject(a, `activities[${i}]`))), part), ...more };
}

/**
 * activity-summary → `summary` (category daily): steps, calories (energy_burned), active_calories
 * (active_energy_burned, "excluding BMR"), distance_from_steps (distance). Not mapped, no catalog
 * metric: active/inactive duration, daily_activity score, inactivity_alert_count.
 */
export function mapActivity(a: Json): IngestRecord {
  const what = 'activity';
  const startText = requireString(a, 'start_time', what);
  const startMs = instantUtcUnlessOffset(startText, `${what}.start_time`);
  const endMs = instantUtcUnlessOffset(requireString(a, 'end_time', what), `${what}.end_time`);
  if (endMs < startMs) throw badResponse(`activity ${startText.slice(0, 30)} ends before it starts`);
  const day = requireDay(startText.slice(0, 10), `${what}.start_time`);
  const num = (key: string) => optionalNumber(a, key, what);
  return {
    type: 'summary',
    source: SOURCE,
    log_id: `activity:${day}`,
    start_time: utcTime(startMs),
    end_time: utcTime(endMs),
    category: 'daily',
    metrics: [
      ...metric('steps', 'count', num('steps')),
      ...metric('energy_burned', 'kcal', num('calories')),
      ...metric('active_energy_burned', 'kcal', num('active_calories')),
      ...metric('distance', 'm', num('distance_from_steps')),
    ],
  };
}
