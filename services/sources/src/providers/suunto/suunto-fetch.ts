/**
 * The reads of each Suunto resource over a window. Workouts: the Workout API's list, by start time,
 * paged by offset; one workout by its key (what WORKOUT_CREATED names). The 24/7 APIs: the daily
 * activity statistics ("Maximum fetch interval duration is 28 days"), and the sleep and activity
 * samples (`from`/`to` epoch ms), each read over whole UTC days.
 */
import { FetchResult, FetchWindow, IngestRecord, isProviderError, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, getData } from './suunto-http';
import { badResponse, DAY_MS, epochMs, parseJson, readPayload, requireArray, requireObject, startOfUtcDay } from './suunto-json';
import { activityDayRecords, mapDailyStatistics, mapSleep, mapWorkout, readActivitySample } from './suunto-mapping';

export interface Call {
  http: ProviderHttp;
  settings: ProviderSettings;
  accessToken: string;
}

/** Workouts per page (the Workout API's list takes `limit`; 100 is the largest its users report). */
export const WORKOUT_PAGE = 100;
/** Bounds a runaway offset loop on a bad answer: 50 pages of 100 workouts in one 28-day window. */
const MAX_OFFSET = 50 * WORKOUT_PAGE;

/**
 * `GET /v2/workouts?since=&until=&limit=&offset=` → `{error, metadata, payload: [workout…]}`. The
 * list is read by start time (epoch ms); a workout outside the window (however Suunto bounds
 * `until`) is left to the window it belongs to. A full page means another may follow.
 */
export async function fetchWorkouts(c: Call, window: FetchWindow): Promise<FetchResult> {
  const offset = window.cursor ? Number(window.cursor) : 0;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw badResponse(`workouts: page offset ${window.cursor} out of range`);
  const url = apiUrl(c.settings, '/v2/workouts', { since: String(window.start.getTime()), until: String(window.end.getTime()), limit: String(WORKOUT_PAGE), offset: String(offset) });
  const res = await getData(c.http, c.settings, c.accessToken, url, 'workouts');
  const items = requireArray(readPayload(res.body, 'workouts', res.status), 'workouts.payload').map((w, i) => requireObject(w, `workouts.payload[${i}]`));
  const records = items.filter((w) => {
    const t = epochMs(w, 'startTime', 'workout');
    return t >= window.start.getTime() && t < window.end.getTime();
  }).map(mapWorkout);
  return { records, ...(items.length >= WORKOUT_PAGE ? { nextCursor: String(offset + items.length) } : {}) };
}

/** `GET /v2/workouts/{workoutKey}` → the workout; [] when Suunto no longer has it (404). */
export async function fetchWorkout(c: Call, key: string): Promise<IngestRecord[]> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(key)) return [];
  try {
    const res = await getData(c.http, c.settings, c.accessToken, apiUrl(c.settings, `/v2/workouts/${key}`), 'workout');
    return [mapWorkout(requireObject(readPayload(res.body, 'workout', res.status), 'workout.payload'))];
  } catch (e) {
    if (isProviderError(e) && e.details.status === 404) return [];
    throw e;
  }
}

/** The whole UTC days a window touches, as [from, to) epoch ms. */
function wholeDays(window: FetchWindow): { from: number; to: number } {
  const from = startOfUtcDay(window.start.getTime());
  return { from, to: Math.max(from + DAY_MS, startOfUtcDay(window.end.getTime() - 1) + DAY_MS) };
}

/** ISO-8601 without a zone, as Suunto's sample usage writes it (the API reads UTC). */
const isoUtc = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** `GET /247/daily-activity-statistics?startdate=&enddate=` over whole UTC days. */
export async function fetchDailyActivity(c: Call, window: FetchWindow): Promise<FetchResult> {
  const { from, to } = wholeDays(window);
  const url = apiUrl(c.settings, '/247/daily-activity-statistics', { startdate: isoUtc(from), enddate: isoUtc(to - 1000) });
  const res = await getData(c.http, c.settings, c.accessToken, url, 'daily activity statistics');
  return { records: mapDailyStatistics(requireArray(parseJson(res.body, 'daily activity statistics', res.status), 'daily activity statistics')) };
}

/** `GET /247samples/<kind>?from=&to=` (epoch ms) over whole UTC days: an array of `{timestamp, entryData}`. */
async function samples(c: Call, kind: 'sleep' | 'activity', window: FetchWindow): Promise<unknown[]> {
  const { from, to } = wholeDays(window);
  const url = apiUrl(c.settings, `/247samples/${kind}`, { from: String(from), to: String(to - 1) });
  const res = await getData(c.http, c.settings, c.accessToken, url, `${kind} samples`);
  return requireArray(parseJson(res.body, `${kind} samples`, res.status), `${kind} samples`);
}

export async function fetchSleep(c: Call, window: FetchWindow): Promise<FetchResult> {
  return { records: (await samples(c, 'sleep', window)).map(mapSleep) };
}

export async function fetchActivity(c: Call, window: FetchWindow): Promise<FetchResult> {
  const { from, to } = wholeDays(window);
  // Samples outside the asked days would make a partial day record that shadows a whole one.
  const rows = (await samples(c, 'activity', window)).map(readActivitySample).filter((s) => s.at >= from && s.at < to);
  return { records: activityDayRecords(rows) };
}
