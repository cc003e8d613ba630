/**
 * A simulated Google Health user's data points, and the list route over them, after the v4 REST
 * reference (users.dataTypes.dataPoints.list; DataPoint with `name`, and its union field: exercise,
 * sleep, weight, bodyFat, heartRate), the proto3 JSON mapping (int64 as strings, Durations as "3600s"), AIP-160
 * filters on the data type's time field with `>=` and `<`, and the page sizes the reference gives
 * (at most 25 for exercise and sleep, 10,000 otherwise; 1,440 by default). Daily records
 * (daily-resting-heart-rate, daily-oxygen-saturation) carry a `date` ({year, month, day}, the
 * user's local day) and no name, and are filtered on `{filter name}.date` (the Filter data guide).
 */
import { apiError, json } from './google-health-sim-auth';
import { countDays, seedDays, type SimDay } from './google-health-sim-rollup';
import type { SimReply } from '../../../../test/simulators/kit/sim-server';

const DAY = 86_400_000;
const MIN = 60_000;

export interface SimPoint {
  id: string;
  /** The time the filter compares (interval start or sample time). */
  at: number;
  body: Record<string, unknown>;
}

export interface GoogleAccount {
  healthUserId: string;
  offsetS: number;
  points: Record<'exercise' | 'sleep' | 'weight' | 'body-fat' | 'heart-rate' | DailyType, SimPoint[]>;
  /** Local days' activity totals, rolled up by dailyRollUp (google-health-sim-rollup.ts). */
  days: Map<string, SimDay>;
}

type DailyType = 'daily-resting-heart-rate' | 'daily-oxygen-saturation';
const DAILY_TYPES: DailyType[] = ['daily-resting-heart-rate', 'daily-oxygen-saturation'];

export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const interval = (start: number, end: number, offsetS: number) => ({ startTime: rfc3339(start), startUtcOffset: `${offsetS}s`, endTime: rfc3339(end), endUtcOffset: `${offsetS}s` });

let serial = 0;
const nextId = () => `${Date.now().toString(36)}${(++serial).toString(36).padStart(4, '0')}`;

export function exercisePoint(start: number, minutes: number, offsetS: number, n: number): SimPoint {
  const end = start + minutes * MIN;
  return {
    id: nextId(),
    at: start,
    body: {
      exercise: {
        interval: interval(start, end, offsetS),
        exerciseType: n % 3 === 0 ? 'BIKING' : 'RUNNING',
        displayName: n % 3 === 0 ? 'Evening ride' : 'Morning run',
        activeDuration: `${minutes * 60 - 60}s`,
        metricsSummary: { caloriesKcal: 250 + n, distanceMillimeters: 5_000_000 + n * 1000, steps: String(4000 + n), averageHeartRateBeatsPerMinute: String(135 + (n % 10)) },
      },
    },
  };
}

export function sleepPoint(start: number, offsetS: number): SimPoint {
  const end = start + 7.5 * 3_600_000;
  // Sleep.SleepStage: type, startTime, endTime and the two offsets are all required.
  const stages: { type: string; startTime: string; endTime: string; startUtcOffset: string; endUtcOffset: string }[] = [];
  const cycle = ['LIGHT', 'DEEP', 'LIGHT', 'REM', 'AWAKE'];
  for (let t = start, i = 0; t < end; i++) {
    const len = (cycle[i % 5] === 'AWAKE' ? 5 : 25) * MIN;
    stages.push({ type: cycle[i % 5], startTime: rfc3339(t), endTime: rfc3339(Math.min(end, t + len)), startUtcOffset: `${offsetS}s`, endUtcOffset: `${offsetS}s` });
    t += len;
  }
  return {
    id: nextId(),
    at: start,
    body: { sleep: { interval: interval(start, end, offsetS), type: 'STAGES', stages, summary: { minutesInSleepPeriod: '450', minutesAsleep: '415', minutesAwake: '35', minutesToFallAsleep: '12' } } },
  };
}

export const weightPoint = (at: number, offsetS: number, grams: number): SimPoint => ({
  id: nextId(),
  at,
  body: { weight: { sampleTime: { physicalTime: rfc3339(at), utcOffset: `${offsetS}s` }, weightGrams: grams } },
});

export const heartRatePoint = (at: number, offsetS: number, bpm: number): SimPoint => ({
  id: nextId(),
  at,
  body: { heartRate: { sampleTime: { physicalTime: rfc3339(at), utcOffset: `${offsetS}s` }, beatsPerMinute: String(bpm) } },
});

export const bodyFatPoint = (at: number, offsetS: number, percent: number): SimPoint => ({
  id: nextId(),
  at,
  body: { bodyFat: { sampleTime: { physicalTime: rfc3339(at), utcOffset: `${offsetS}s` }, percentage: percent } },
});

const civilDate = (day: string) => ({ year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)), day: Number(day.slice(8, 10)) });

/** A local day's resting heart rate (DailyRestingHeartRate: `date`, `beatsPerMinute` int64) and SpO2 (DailyOxygenSaturation: `date`, percentages). */
export function dailyPoints(day: string): Record<DailyType, SimPoint> {
  const at = Date.parse(`${day}T00:00:00Z`);
  const n = Number(day.slice(8, 10));
  return {
    'daily-resting-heart-rate': { id: nextId(), at, body: { dailyRestingHeartRate: { date: civilDate(day), beatsPerMinute: String(52 + (n % 9)) } } },
    'daily-oxygen-saturation': { id: nextId(), at, body: { dailyOxygenSaturation: { date: civilDate(day), averagePercentage: 95 + (n % 4) / 2, lowerBoundPercentage: 92, upperBoundPercentage: 99 } } },
  };
}

/** `days` of data ending at `now`: a sleep each night, an exercise every other day, a weight every third, heart rate every `hrEveryS`. */
export function seedAccount(healthUserId: string, offsetS: number, days: number, now: Date, hrEveryS: number): GoogleAccount {
  const a: GoogleAccount = { healthUserId, offsetS, points: { exercise: [], sleep: [], weight: [], 'body-fat': [], 'heart-rate': [], 'daily-resting-heart-rate': [], 'daily-oxygen-saturation': [] }, days: seedDays(offsetS, days, now) };
  // A resting heart rate and an SpO2 for each local day with activity totals.
  for (const day of a.days.keys()) {
    const points = dailyPoints(day);
    for (const t of DAILY_TYPES) a.points[t].push(points[t]);
  }
  const end = now.getTime();
  const first = Math.floor((end - days * DAY) / DAY) * DAY;
  for (let d = first, n = 0; d < end; d += DAY, n++) {
    const sleepStart = d - 2 * 3_600_000;
    if (sleepStart >= end - days * DAY && sleepStart + 7.5 * 3_600_000 < end) a.points.sleep.push(sleepPoint(sleepStart, offsetS));
    if (n % 2 === 0 && d + 17 * 3_600_000 < end) a.points.exercise.push(exercisePoint(d + 16 * 3_600_000, 45, offsetS, n));
    if (n % 3 === 0 && d + 7 * 3_600_000 < end) a.points.weight.push(weightPoint(d + 7 * 3_600_000, offsetS, 72_000 + n * 50));
    if (n % 7 === 0 && d + 7 * 3_600_000 < end) a.points['body-fat'].push(bodyFatPoint(d + 7 * 3_600_000 + 60_000, offsetS, 21.5 + (n % 5) / 10));
  }
  for (let t = Math.floor((end - days * DAY) / 60_000) * 60_000; t < end; t += hrEveryS * 1000) a.points['heart-rate'].push(heartRatePoint(t, offsetS, 55 + Math.floor((t / 60_000) % 40)));
  return a;
}

/** Records of each Wellstream type the data maps to with start_time in [from, to). */
export function countRecords(a: GoogleAccount, from: Date, to: Date): Partial<Record<string, number>> {
  const inRange = (t: number) => t >= from.getTime() && t < to.getTime();
  const days = new Set(a.points['heart-rate'].map((p) => Math.floor(p.at / DAY) * DAY).filter(inRange));
  return {
    workout: a.points.exercise.filter((p) => inRange(p.at)).length,
    sleep: a.points.sleep.filter((p) => inRange(p.at)).length,
    measurement: a.points.weight.filter((p) => inRange(p.at)).length + a.points['body-fat'].filter((p) => inRange(p.at)).length + a.points['daily-oxygen-saturation'].filter((p) => inRange(p.at)).length,
    intraday: days.size,
    summary: countDays(a.days, from, to),
  };
}

const FILTER_FIELDS: Record<string, string> = {
  exercise: 'exercise.interval.start_time',
  sleep: 'sleep.interval.start_time',
  weight: 'weight.sample_time.physical_time',
  'body-fat': 'body_fat.sample_time.physical_time',
  'heart-rate': 'heart_rate.sample_time.physical_time',
  'daily-resting-heart-rate': 'daily_resting_heart_rate.date',
  'daily-oxygen-saturation': 'daily_oxygen_saturation.date',
};
const CIVIL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const SESSION_TYPES = ['exercise', 'sleep'];

/** GET /v4/users/{user}/dataTypes/{dataType}/dataPoints */
export function listRoute(a: GoogleAccount, dataType: string, q: URLSearchParams): SimReply {
  const field = FILTER_FIELDS[dataType];
  if (!field) return apiError(404, 'NOT_FOUND', `Unknown data type ${dataType}`);
  let points = a.points[dataType as keyof GoogleAccount['points']];
  const filter = q.get('filter');
  if (filter) {
    const m = /^(\S+) >= "([^"]+)" AND (\S+) < "([^"]+)"$/.exec(filter);
    if (!m || m[1] !== field || m[3] !== field || Number.isNaN(Date.parse(m[2])) || Number.isNaN(Date.parse(m[4]))) return apiError(400, 'INVALID_ARGUMENT', `Invalid filter: ${filter}`);
    // A Daily record's `date` is a calendar date, compared as one (its points stand at that date's 00:00 UTC here).
    if (field.endsWith('.date') && !(CIVIL_DATE.test(m[2]) && CIVIL_DATE.test(m[4]))) return apiError(400, 'INVALID_ARGUMENT', `Invalid filter: ${filter}`);
    const [from, to] = [Date.parse(m[2]), Date.parse(m[4])];
    points = points.filter((p) => p.at >= from && p.at < to);
  }
  points = [...points].sort((x, y) => x.at - y.at);
  const max = SESSION_TYPES.includes(dataType) ? 25 : 10_000;
  const asked = Number(q.get('pageSize') ?? q.get('page_size') ?? (SESSION_TYPES.includes(dataType) ? 25 : 1440));
  const size = Math.max(1, Math.min(max, Number.isFinite(asked) && asked > 0 ? asked : max));
  const tokenRaw = q.get('pageToken') ?? q.get('page_token');
  const offset = tokenRaw ? Number(Buffer.from(tokenRaw, 'base64url').toString()) : 0;
  if (!Number.isInteger(offset) || offset < 0) return apiError(400, 'INVALID_ARGUMENT', 'Invalid page token');
  const page = points.slice(offset, offset + size);
  const next = offset + size < points.length ? Buffer.from(String(offset + size)).toString('base64url') : undefined;
  return json(200, {
    dataPoints: page.map((p) => (DAILY_TYPES.includes(dataType as DailyType) ? p.body : { name: `users/${a.healthUserId}/dataTypes/${dataType}/dataPoints/${p.id}`, ...p.body })),
    ...(next ? { nextPageToken: next } : {}),
  });
}
