/**
 * Measure v2 - Getintradayactivity → `intraday` records. Withings answers a `series` object keyed
 * by unix timestamp, at most 24 h per call, with no id and no time zone. We ask one UTC day per
 * call and build one record per UTC day (log_id `intraday-YYYY-MM-DD`, stable whatever the
 * window), each metric a per-minute series (PT1M, ≤ 1440 samples). Only days whose start lies in
 * the window are fetched, so each day belongs to exactly one window; the cursor is the next day to
 * fetch (Withings has no pagination here). No utc_offset: the service gives none.
 */
import { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { callWithings, isRecord, num, PATHS } from './withings-http';
import { ceilUtcDay, DAY_S, isoSeconds, utcYmd } from './withings-time';

type Series = { type: string; unit: string; granularity: 'PT1M'; samples: { time: string; value: number }[] };

/** intraday field → catalog metric and how samples within one minute combine. */
const INTRADAY_FIELDS: Record<string, { type: string; unit: string; combine: 'sum' | 'mean' }> = {
  steps: { type: 'steps', unit: 'count', combine: 'sum' },
  distance: { type: 'distance', unit: 'm', combine: 'sum' },
  calories: { type: 'active_energy_burned', unit: 'kcal', combine: 'sum' }, // "Estimation of active calories burned (in Kcal)"
  elevation: { type: 'floors_climbed', unit: 'count', combine: 'sum' }, // "Number of floors climbed"
  heart_rate: { type: 'heart_rate', unit: 'bpm', combine: 'mean' },
  spo2_auto: { type: 'oxygen_saturation', unit: 'percent', combine: 'mean' },
};
export const INTRADAY_DATA_FIELDS = Object.keys(INTRADAY_FIELDS).join(',');

/** Builds the record of the UTC day starting at `dayStart` from a getintradayactivity body. */
export function mapIntradayDay(body: Record<string, unknown>, dayStart: number): IngestRecord | undefined {
  const series = isRecord(body.series) ? body.series : {};
  const perField = new Map<string, Map<number, number[]>>();
  for (const [key, point] of Object.entries(series)) {
    const at = /^\d+$/.test(key) ? Number(key) : NaN;
    if (!Number.isFinite(at) || at < dayStart || at >= dayStart + DAY_S || !isRecord(point)) continue;
    const minute = Math.floor(at / 60) * 60;
    for (const field of Object.keys(INTRADAY_FIELDS)) {
      const value = num(point[field]);
      if (value === undefined) continue;
      const byMinute = perField.get(field) ?? new Map<number, number[]>();
      perField.set(field, byMinute);
      byMinute.set(minute, [...(byMinute.get(minute) ?? []), value]);
    }
  }
  const metrics: Series[] = [];
  for (const [field, def] of Object.entries(INTRADAY_FIELDS)) {
    const byMinute = perField.get(field);
    if (!byMinute || byMinute.size === 0) continue;
    const samples = [...byMinute.entries()]
      .sort(([a], [b]) => a - b)
      .map(([minute, values]) => {
        const sum = values.reduce((s, v) => s + v, 0);
        return { time: isoSeconds(minute), value: def.combine === 'sum' ? sum : sum / values.length };
      });
    metrics.push({ type: def.type, unit: def.unit, granularity: 'PT1M', samples });
  }
  if (metrics.length === 0) return undefined;
  return {
    type: 'intraday',
    source: { type: 'withings' },
    log_id: `intraday-${utcYmd(dayStart)}`,
    start_time: isoSeconds(dayStart),
    end_time: isoSeconds(dayStart + DAY_S - 1),
    metrics,
  };
}

export async function fetchIntraday(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const end = window.end.getTime() / 1000;
  const cursorDay = window.cursor && /^\d+$/.test(window.cursor) ? Number(window.cursor) : undefined;
  const dayStart = cursorDay ?? ceilUtcDay(window.start.getTime() / 1000);
  if (dayStart >= end) return { records: [] };
  const body = await callWithings(http, settings, accessToken, PATHS.measureV2, {
    action: 'getintradayactivity',
    startdate: String(dayStart),
    enddate: String(dayStart + DAY_S - 1),
    data_fields: INTRADAY_DATA_FIELDS,
  });
  const record = mapIntradayDay(body, dayStart);
  const next = dayStart + DAY_S;
  return { records: record ? [record] : [], ...(next < end ? { nextCursor: String(next) } : {}) };
}
