/**
 * The day's SpO2: `daily-oxygen-saturation` (DailyOxygenSaturation: `date`, `averagePercentage` "the
 * average value of the oxygen saturation samples during the sleep", its confidence bounds) listed by
 * date (google-health-daily-points.ts) → one `measurement` a local day with `oxygen_saturation`
 * percent. Google gives the civil day without its UTC offset, so the record stands at that date's
 * 00:00 UTC and carries no utc_offset (as the daily summaries do).
 */
import type { FetchResult, FetchWindow, IngestRecordOf, ProviderHttp, ProviderSettings } from '../provider.port';
import { listDailyPoints } from './google-health-daily-points';
import { badResponse, DAY_MS, optionalNumber, startOfUtcDay, utcTime } from './google-health-json';

export const DAILY_OXYGEN_SATURATION = { urlType: 'daily-oxygen-saturation', filterName: 'daily_oxygen_saturation', field: 'dailyOxygenSaturation' };

export async function fetchDailyOxygenSaturation(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  // Whole days covering the window: a day at a window's edge is read whole by each window and replaces itself.
  const from = startOfUtcDay(window.start.getTime());
  const to = Math.max(from + DAY_MS, startOfUtcDay(window.end.getTime() - 1) + DAY_MS);
  const days = await listDailyPoints(http, settings, accessToken, DAILY_OXYGEN_SATURATION, from, to);
  const records: IngestRecordOf<'measurement'>[] = [];
  for (const [day, value] of [...days.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const percent = optionalNumber(value, 'averagePercentage', `daily-oxygen-saturation ${day}`);
    if (percent === undefined) throw badResponse(`daily-oxygen-saturation ${day} has no averagePercentage`);
    if (percent < 0 || percent > 100) throw badResponse(`daily-oxygen-saturation ${day}: averagePercentage ${percent} is not a percentage`);
    const at = utcTime(Date.parse(`${day}T00:00:00Z`));
    records.push({
      type: 'measurement',
      source: { type: 'google_health' },
      log_id: `daily_oxygen_saturation:${day}`,
      start_time: at,
      end_time: at,
      metrics: [{ type: 'oxygen_saturation', unit: 'percent', value: percent, origin: 'device' }],
    });
  }
  return { records };
}
