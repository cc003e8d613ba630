/**
 * Measure v2 - Getactivity → daily `summary` records and Measure v2 - Getworkouts → `workout`
 * records. An activity's stable id is its local `date` (Withings has no activity id); a workout's
 * is its `id`. Start times come from Withings' own `timezone` (the local midnight of `date`),
 * offsets too. Fields without a catalog metric are not mapped (README lists them).
 */
import { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings, ValueMetric, WorkoutCategory } from '../provider.port';
import { callWithings, deviceOf, idOf, int, isRecord, nextCursorOf, num, offsetParam, PATHS, str, arrayOf } from './withings-http';
import { inWindow, isoSeconds, localMidnight, paddedYmdRange, zoneOffsetSeconds } from './withings-time';

type Metric = ValueMetric;

/** activity field → catalog metric (API reference, activity_object). */
const ACTIVITY_FIELDS: Record<string, { type: string; unit: string }> = {
  steps: { type: 'steps', unit: 'count' },
  distance: { type: 'distance', unit: 'm' }, // "Distance travelled (in meters)"
  elevation: { type: 'floors_climbed', unit: 'count' }, // documented as "Number of floors climbed"
  calories: { type: 'active_energy_burned', unit: 'kcal' }, // "Active calories burned (in Kcal)"
  totalcalories: { type: 'energy_burned', unit: 'kcal' }, // "Total calories burned (in Kcal)"
};
export const ACTIVITY_DATA_FIELDS = Object.keys(ACTIVITY_FIELDS).join(',');

/** workout `data` field → catalog metric (API reference, workout_object). */
const WORKOUT_FIELDS: Record<string, { type: string; unit: string }> = {
  calories: { type: 'active_energy_burned', unit: 'kcal' },
  distance: { type: 'distance', unit: 'm' },
  steps: { type: 'steps', unit: 'count' },
  hr_average: { type: 'avg_heart_rate', unit: 'bpm' },
  hr_max: { type: 'max_heart_rate', unit: 'bpm' },
};
export const WORKOUT_DATA_FIELDS = Object.keys(WORKOUT_FIELDS).join(',');

/** Withings workout category → Wellstream category (others are `other`, with Withings' name kept). */
const WORKOUT_CATEGORIES: Record<number, { category: WorkoutCategory; name: string }> = {
  1: { category: 'walking', name: 'Walk' },
  2: { category: 'running', name: 'Run' },
  3: { category: 'hiking', name: 'Hiking' },
  6: { category: 'cycling', name: 'Bicycling' },
  7: { category: 'swimming', name: 'Swimming' },
  16: { category: 'strength', name: 'Lift weights' },
  28: { category: 'yoga', name: 'Yoga' },
  187: { category: 'rowing', name: 'Rowing' },
  306: { category: 'walking', name: 'Indoor walk' },
  307: { category: 'running', name: 'Indoor running' },
  308: { category: 'cycling', name: 'Indoor cycling' },
  498: { category: 'running', name: 'Trail Running' },
  523: { category: 'cycling', name: 'Mountain Biking' },
};

function metricsFrom(source: Record<string, unknown>, fields: Record<string, { type: string; unit: string }>, origin: Metric['origin']): Metric[] {
  const out: Metric[] = [];
  for (const [field, metric] of Object.entries(fields)) {
    const value = num(source[field]);
    if (value !== undefined) out.push({ type: metric.type, unit: metric.unit, value, origin });
  }
  return out;
}

export function mapActivity(a: unknown): IngestRecord | undefined {
  if (!isRecord(a)) return undefined;
  const date = str(a.date);
  const start = date ? localMidnight(date, a.timezone) : undefined;
  if (!date || start === undefined) return undefined;
  // The next local midnight: 23, 24 or 25 h later around DST changes.
  const next = localMidnight(new Date((start + 36 * 3600) * 1000).toISOString().slice(0, 10), a.timezone) ?? start + 86_400;
  const offset = zoneOffsetSeconds(a.timezone, start);
  // brand 18 is "external" (an app or another service), 1 is Withings (activity_object `brand`).
  const origin = a.is_tracker === true ? 'device' : 'unknown';
  const device = deviceOf(a.model, a.hash_deviceid);
  return {
    type: 'summary',
    category: 'daily',
    source: { type: 'withings', ...(device ? { device } : {}) },
    log_id: `activity-${date}`,
    start_time: isoSeconds(start),
    end_time: isoSeconds(Math.max(start, next - 1)),
    ...(offset !== undefined ? { utc_offset: offset } : {}),
    metrics: metricsFrom(a, ACTIVITY_FIELDS, origin),
  };
}

export function mapWorkout(w: unknown): IngestRecord | undefined {
  if (!isRecord(w)) return undefined;
  const id = idOf(w.id);
  const start = int(w.startdate);
  const end = int(w.enddate);
  if (!id || start === undefined || end === undefined || end < start) return undefined;
  const known = WORKOUT_CATEGORIES[int(w.category) ?? -1];
  const offset = zoneOffsetSeconds(w.timezone, start);
  const data = isRecord(w.data) ? w.data : {};
  return {
    type: 'workout',
    category: known?.category ?? 'other',
    ...(known ? { name: known.name } : {}),
    source: { type: 'withings' },
    log_id: id,
    start_time: isoSeconds(start),
    end_time: isoSeconds(end),
    ...(offset !== undefined ? { utc_offset: offset } : {}),
    metrics: metricsFrom(data, WORKOUT_FIELDS, int(w.attrib) === 2 ? 'manual' : 'device'),
  };
}

function keepInWindow(records: (IngestRecord | undefined)[], window: FetchWindow): IngestRecord[] {
  return records.filter((r): r is IngestRecord => !!r && inWindow(new Date(r.start_time).getTime() / 1000, window.start, window.end));
}

export async function fetchActivity(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const body = await callWithings(http, settings, accessToken, PATHS.measureV2, {
    action: 'getactivity',
    ...paddedYmdRange(window.start, window.end),
    data_fields: ACTIVITY_DATA_FIELDS,
    ...offsetParam(window.cursor),
  });
  const nextCursor = nextCursorOf(body);
  return { records: keepInWindow(arrayOf(body.activities).map(mapActivity), window), ...(nextCursor ? { nextCursor } : {}) };
}

export async function fetchWorkouts(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const body = await callWithings(http, settings, accessToken, PATHS.measureV2, {
    action: 'getworkouts',
    ...paddedYmdRange(window.start, window.end),
    data_fields: WORKOUT_DATA_FIELDS,
    ...offsetParam(window.cursor),
  });
  const nextCursor = nextCursorOf(body);
  return { records: keepInWindow(arrayOf(body.series).map(mapWorkout), window), ...(nextCursor ? { nextCursor } : {}) };
}
