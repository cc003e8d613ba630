/**
 * The simulated dailyRollUp route, after the v4 REST reference (users.dataTypes.dataPoints.dailyRollUp):
 * `POST /v4/users/{user}/dataTypes/{dataType}/dataPoints:dailyRollUp` with `{range: CivilTimeInterval,
 * windowSizeDays, pageSize, pageToken}`; the range is closed-open, must align with the aggregation
 * window, and may span 14 days for total-calories (90 for the others); the answer is
 * `{rollupDataPoints: [DailyRollupDataPoint]}` with `civilStartTime`/`civilEndTime` and the data type's
 * rollup value (StepsRollupValue `countSum` as an int64 string, DistanceRollupValue `millimetersSum`
 * as an int64 string, FloorsRollupValue `countSum`, ActiveEnergyBurnedRollupValue and
 * TotalCaloriesRollupValue `kcalSum` numbers). The user's days are local (civil) days.
 */
import { apiError, json } from './google-health-sim-auth';
import type { SimReply } from '../../../../test/simulators/kit/sim-server';

const DAY = 86_400_000;

export interface SimDay {
  steps: number;
  distanceMm: number;
  floors: number;
  activeKcal: number;
  totalKcal: number;
}

/** Local days `YYYY-MM-DD` → that day's totals, for the local days of the last `days` days before `now`. */
export function seedDays(offsetS: number, days: number, now: Date): Map<string, SimDay> {
  const out = new Map<string, SimDay>();
  const localNow = now.getTime() + offsetS * 1000;
  for (let i = days; i >= 0; i--) {
    const day = new Date(localNow - i * DAY).toISOString().slice(0, 10);
    const n = Number(day.slice(8, 10));
    out.set(day, { steps: 6000 + n * 137, distanceMm: 4_500_000 + n * 91_000, floors: 5 + (n % 9), activeKcal: 380.5 + n, totalKcal: 2150.25 + n * 3 });
  }
  return out;
}

/** Summary records (one per local day with data) whose start_time (the date at 00:00 UTC) is in [from, to). */
export const countDays = (days: Map<string, SimDay>, from: Date, to: Date): number =>
  [...days.keys()].filter((d) => Date.parse(`${d}T00:00:00Z`) >= from.getTime() && Date.parse(`${d}T00:00:00Z`) < to.getTime()).length;

const VALUE: Record<string, (d: SimDay) => [string, Record<string, unknown>]> = {
  steps: (d) => ['steps', { countSum: String(d.steps) }],
  distance: (d) => ['distance', { millimetersSum: String(d.distanceMm) }],
  floors: (d) => ['floors', { countSum: String(d.floors) }],
  'active-energy-burned': (d) => ['activeEnergyBurned', { kcalSum: d.activeKcal }],
  'total-calories': (d) => ['totalCalories', { kcalSum: d.totalKcal }],
};

const MAX_RANGE_DAYS: Record<string, number> = { 'total-calories': 14 };

/** A CivilDateTime at midnight (time omitted or 00:00) → epoch ms of that date at UTC midnight. */
function civilDate(v: unknown): number | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const { date, time } = v as { date?: { year?: number; month?: number; day?: number }; time?: Record<string, number> };
  if (!date || !Number.isInteger(date.year) || !Number.isInteger(date.month) || !Number.isInteger(date.day)) return undefined;
  if (time && Object.values(time).some((x) => x !== 0)) return undefined;
  const ms = Date.UTC(date.year!, date.month! - 1, date.day!);
  return new Date(ms).getUTCDate() === date.day ? ms : undefined;
}

const civil = (ms: number) => {
  const d = new Date(ms);
  return { date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() } };
};

export function dailyRollUpRoute(days: Map<string, SimDay>, dataType: string, rawBody: string): SimReply {
  const value = VALUE[dataType];
  if (!value) return apiError(400, 'INVALID_ARGUMENT', `Data type ${dataType} does not support dailyRollUp`);
  let req: { range?: { start?: unknown; end?: unknown }; windowSizeDays?: unknown };
  try {
    req = JSON.parse(rawBody) as typeof req;
  } catch {
    return apiError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
  }
  const start = civilDate(req.range?.start);
  const end = civilDate(req.range?.end);
  const windowDays = req.windowSizeDays === undefined ? 1 : req.windowSizeDays;
  if (start === undefined || end === undefined || end <= start) return apiError(400, 'INVALID_ARGUMENT', 'range must be a closed-open civil interval aligned with the aggregation window');
  if (windowDays !== 1) return apiError(400, 'INVALID_ARGUMENT', 'the simulator rolls up one-day windows only');
  if ((end - start) / DAY > (MAX_RANGE_DAYS[dataType] ?? 90)) return apiError(400, 'INVALID_ARGUMENT', `range exceeds the maximum for ${dataType}`);
  const points = [];
  for (let t = start; t < end; t += DAY) {
    const d = days.get(new Date(t).toISOString().slice(0, 10));
    if (!d) continue;
    const [field, v] = value(d);
    points.push({ civilStartTime: civil(t), civilEndTime: civil(t + DAY), [field]: v });
  }
  return json(200, { rollupDataPoints: points });
}
