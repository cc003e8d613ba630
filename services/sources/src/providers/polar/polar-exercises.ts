/**
 * Exercises (`GET /v3/exercises`): every exercise uploaded to Flow in the last 30 days, and only
 * those uploaded after the user was registered with our client. The list takes no date filter, so a
 * window is one request whose answer is kept where start_time falls in the window.
 */
import type { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings, WorkoutCategory } from '../provider.port';
import { apiUrl, bearer, send } from './polar-http';
import { badResponse, Json, optionalNumber, optionalObject, optionalString, parseJson, requireArray, requireId, requireObject, requireString } from './polar-json';
import { inWindow, metric, SOURCE } from './polar-records';
import { clockMs, durationSeconds, utcTime } from './polar-time';

export async function fetchExercises(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v3/exercises'), headers: bearer(accessToken) }, 'exercises');
  // 204 is not documented here but is what AccessLink answers elsewhere for "nothing": read as empty.
  if (res.status === 204 || res.body.trim() === '') return { records: [] };
  const list = requireArray(parseJson(res.body, 'exercises', res.status), 'exercises');
  return { records: inWindow(list.map((e, i) => mapExercise(requireObject(e, `exercises[${i}]`))), window) };
}

/**
 * Polar's `sport` / `detailed_sport_info` names (appendix "Detailed sport info values": RUNNING,
 * TRAIL_RUNNING, INDOOR_CYCLING, POOL_SWIMMING, NORDIC_WALKING, INDOOR_ROWING, STRENGTH_TRAINING,
 * YOGA, …) onto the catalog's workout categories by their last word; every other sport is `other`.
 */
const CATEGORIES: [RegExp, WorkoutCategory][] = [
  [/(^|_)RUNNING$/, 'running'],
  [/(^|_)(CYCLING|BIKING)$/, 'cycling'],
  [/(^|_)WALKING$/, 'walking'],
  [/^HIKING$/, 'hiking'],
  [/(^|_)SWIMMING$/, 'swimming'],
  [/(^|_)ROWING$/, 'rowing'],
  [/^STRENGTH_TRAINING$/, 'strength'],
  [/^YOGA$/, 'yoga'],
];

export function workoutCategory(...names: (string | undefined)[]): WorkoutCategory {
  for (const name of names) {
    if (!name) continue;
    const hit = CATEGORIES.find(([re]) => re.test(name.toUpperCase()));
    if (hit) return hit[1];
  }
  return 'other';
}

const words = (s: string) => s.toLowerCase().replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * exerciseHashId → `workout`. `start_time` is local time and `start_time_utc_offset` its offset in
 * minutes, so the instant is start − offset and utc_offset is Polar's own. The end is start +
 * `duration` (ISO 8601). Heart-rate zones are not mapped: Polar's five indexed zones have no
 * counterpart among the catalog's four named ones.
 */
export function mapExercise(e: Json): IngestRecord {
  const what = 'exercise';
  const id = requireId(e, 'id', what);
  const local = clockMs(requireString(e, 'start_time', what), `${what}.start_time`);
  const offsetMin = optionalNumber(e, 'start_time_utc_offset', what);
  if (offsetMin !== undefined && (!Number.isInteger(offsetMin) || Math.abs(offsetMin) > 14 * 60)) throw badResponse(`${what} ${id} start_time_utc_offset is out of range`);
  const startMs = local - (offsetMin ?? 0) * 60_000;
  const seconds = durationSeconds(requireString(e, 'duration', what), `${what}.duration`);
  const hr = optionalObject(e, 'heart_rate', what);
  const sport = optionalString(e, 'sport', what);
  const detailed = optionalString(e, 'detailed_sport_info', what);
  const device = optionalString(e, 'device', what);
  const deviceId = optionalString(e, 'device_id', what);
  return {
    type: 'workout',
    source: device || deviceId ? { ...SOURCE, device: { ...(device ? { name: device.slice(0, 200) } : {}), ...(deviceId ? { id: deviceId.slice(0, 200) } : {}), manufacturer: 'Polar' } } : SOURCE,
    log_id: id,
    start_time: utcTime(startMs),
    end_time: utcTime(startMs + seconds * 1000),
    // Without Polar's offset the local time was read as UTC and no utc_offset is claimed.
    ...(offsetMin !== undefined ? { utc_offset: offsetMin * 60 } : {}),
    category: workoutCategory(detailed, sport),
    name: words(detailed || sport || 'exercise').slice(0, 200),
    metrics: [
      ...metric('energy_burned', 'kcal', optionalNumber(e, 'calories', what)),
      ...metric('distance', 'm', optionalNumber(e, 'distance', what)),
      ...metric('avg_heart_rate', 'bpm', hr ? optionalNumber(hr, 'average', `${what}.heart_rate`) : undefined),
      ...metric('max_heart_rate', 'bpm', hr ? optionalNumber(hr, 'maximum', `${what}.heart_rate`) : undefined),
    ],
  };
}
