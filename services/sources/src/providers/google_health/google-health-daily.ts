/**
 * Daily activity summaries from Google's own per-day rollup:
 * `POST /v4/users/me/dataTypes/{dataType}/dataPoints:dailyRollUp` with `{range: CivilTimeInterval,
 * windowSizeDays: 1}` (users.dataTypes.dataPoints.dailyRollUp). Google aggregates over civil days,
 * the user's local calendar day, reconciled across devices; the steps guide asks integrators not to
 * compute daily totals themselves. One `summary` record per local day, `daily_summary:<YYYY-MM-DD>`,
 * merges the five data types' values for that day, so the record is whole once all five are read.
 */
import type { FetchResult, FetchWindow, IngestRecordOf, ProviderHttp, ProviderSettings, ValueMetric } from '../provider.port';
import { listDailyPoints, readCivilDate } from './google-health-daily-points';
import { apiUrl, bearer, send } from './google-health-http';
import { badResponse, DAY_MS, Json, optionalNumber, optionalObject, optionalString, parseJson, requireArray, requireObject, startOfUtcDay, utcTime } from './google-health-json';

/** Each rolled-up data type, the DailyRollupDataPoint field that carries it, and how its value becomes a metric. */
const ROLLUPS: { dataType: string; field: string; key: string; metric: string; unit: string; scale: number }[] = [
  { dataType: 'steps', field: 'steps', key: 'countSum', metric: 'steps', unit: 'count', scale: 1 },
  { dataType: 'distance', field: 'distance', key: 'millimetersSum', metric: 'distance', unit: 'm', scale: 1 / 1000 },
  { dataType: 'floors', field: 'floors', key: 'countSum', metric: 'floors_climbed', unit: 'count', scale: 1 },
  { dataType: 'active-energy-burned', field: 'activeEnergyBurned', key: 'kcalSum', metric: 'active_energy_burned', unit: 'kcal', scale: 1 },
  { dataType: 'total-calories', field: 'totalCalories', key: 'kcalSum', metric: 'energy_burned', unit: 'kcal', scale: 1 },
];

/**
 * The day's resting heart rate: a Daily record (no dailyRollUp value carries it; its rollup is a
 * personal range), listed by date over the same whole days (google-health-daily-points.ts).
 */
const RESTING_HEART_RATE = { urlType: 'daily-resting-heart-rate', filterName: 'daily_resting_heart_rate', field: 'dailyRestingHeartRate' };

/** The data types this resource reads (a notification for any of them refetches the summary). */
export const DAILY_SUMMARY_TYPES = [...ROLLUPS.map((r) => r.dataType), RESTING_HEART_RATE.urlType];

/** total-calories allows 14 days a request (the other types 90): a window is at most 13 days, rounded out to 14 whole days. */
export const DAILY_SUMMARY_MAX_DAYS = 13;
const MAX_PAGES = 5;

const civil = (dayMs: number) => {
  const d = new Date(dayMs);
  return { date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() } };
};

/** A CivilDateTime's date as `YYYY-MM-DD` (windows are whole days). */
function civilDay(o: Json, key: string, what: string): string {
  const dt = requireObject(o[key], `${what}.${key}`);
  return readCivilDate(dt.date, `${what}.${key}.date`);
}

export async function fetchDailySummary(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  // Whole local days covering the window: the rollup's range must align with its one-day windows.
  const from = startOfUtcDay(window.start.getTime());
  const to = Math.max(from + DAY_MS, startOfUtcDay(window.end.getTime() - 1) + DAY_MS);
  const days = new Map<string, ValueMetric[]>();
  for (const r of ROLLUPS) {
    const url = apiUrl(settings, `/v4/users/me/dataTypes/${r.dataType}/dataPoints:dailyRollUp`, {});
    let pageToken: string | undefined;
    for (let page = 0; ; page++) {
      if (page === MAX_PAGES) throw badResponse(`${r.dataType}: more than ${MAX_PAGES} rollup pages for one window`);
      const body = { range: { start: civil(from), end: civil(to) }, windowSizeDays: 1, ...(pageToken ? { pageToken } : {}) };
      const res = await send(http, { method: 'POST', url, headers: bearer(accessToken), json: body }, r.dataType);
      const root = requireObject(parseJson(res.body, r.dataType), r.dataType);
      for (const [i, raw] of requireArray(root.rollupDataPoints ?? [], `${r.dataType}.rollupDataPoints`).entries()) {
        const what = `${r.dataType}.rollupDataPoints[${i}]`;
        const point = requireObject(raw, what);
        const day = civilDay(point, 'civilStartTime', what);
        const value = optionalObject(point, r.field, what);
        const n = value ? optionalNumber(value, r.key, `${what}.${r.field}`) : undefined;
        if (n === undefined) continue;
        const metrics = days.get(day) ?? [];
        metrics.push({ type: r.metric, unit: r.unit, value: Math.round(n * r.scale * 1000) / 1000, origin: 'device' });
        days.set(day, metrics);
      }
      pageToken = optionalString(root, 'nextPageToken', r.dataType);
      if (!pageToken) break;
    }
  }
  for (const [day, value] of await listDailyPoints(http, settings, accessToken, RESTING_HEART_RATE, from, to)) {
    const bpm = optionalNumber(value, 'beatsPerMinute', `${RESTING_HEART_RATE.urlType} ${day}`);
    if (bpm === undefined) throw badResponse(`${RESTING_HEART_RATE.urlType} ${day} has no beatsPerMinute`);
    days.set(day, [...(days.get(day) ?? []), { type: 'resting_heart_rate', unit: 'bpm', value: bpm, origin: 'device' }]);
  }
  return { records: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, metrics]) => summaryRecord(day, metrics)) };
}

/** A local day's summary. Google gives the civil day without its UTC offset, so the record spans that date in UTC and carries no utc_offset. */
function summaryRecord(day: string, metrics: ValueMetric[]): IngestRecordOf<'summary'> {
  const start = Date.parse(`${day}T00:00:00Z`);
  return { type: 'summary', source: { type: 'google_health' }, log_id: `daily_summary:${day}`, start_time: utcTime(start), end_time: utcTime(start + DAY_MS), category: 'daily', metrics };
}
