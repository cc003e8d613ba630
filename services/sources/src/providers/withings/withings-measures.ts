/**
 * Measure - Getmeas → `measurement` records. One record per measure group (`grpid`, Withings'
 * stable id for measures taken together, e.g. systole + diastole + pulse), value = value × 10^unit,
 * each Withings meastype mapped to one catalog metric; types without a catalog metric are not
 * requested and, if they come anyway, left out (README lists them).
 */
import { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings, ValueMetric } from '../provider.port';
import { arrayOf, callWithings, deviceOf, idOf, int, isRecord, nextCursorOf, offsetParam, PATHS } from './withings-http';
import { isoSeconds, zoneOffsetSeconds } from './withings-time';

/** meastype → catalog metric (API reference, Measure - Getmeas `meastype` table). */
export const MEASTYPE_METRICS: Record<number, { type: string; unit: string }> = {
  1: { type: 'body_weight', unit: 'kg' }, // Weight (kg)
  4: { type: 'height', unit: 'm' }, // Height (meter)
  6: { type: 'body_fat', unit: 'percent' }, // Fat Ratio (%)
  9: { type: 'blood_pressure_diastolic', unit: 'mmHg' }, // Diastolic Blood Pressure (mmHg)
  10: { type: 'blood_pressure_systolic', unit: 'mmHg' }, // Systolic Blood Pressure (mmHg)
  11: { type: 'heart_rate', unit: 'bpm' }, // Heart Pulse (bpm)
  12: { type: 'body_temperature', unit: 'celsius' }, // Temperature (celsius)
  54: { type: 'oxygen_saturation', unit: 'percent' }, // SP02 (%)
  71: { type: 'body_temperature', unit: 'celsius' }, // Body Temperature (celsius)
};

export const REQUESTED_MEASTYPES = Object.keys(MEASTYPE_METRICS).join(',');

/** `value × 10^unit`, dividing for negative units so 65750 × 10^-3 is exactly 65.75. */
export function scaled(value: number, unit: number): number {
  return unit < 0 ? value / 10 ** -unit : value * 10 ** unit;
}

/** attrib 2 and 4 are entered by hand; 0, 1, 5, 7, 8 and 15 come from a device (measuregrp `attrib` table). */
function originOf(attrib: unknown): 'device' | 'manual' | 'unknown' {
  const a = int(attrib);
  if (a === 2 || a === 4) return 'manual';
  if (a !== undefined && [0, 1, 5, 7, 8, 15].includes(a)) return 'device';
  return 'unknown';
}

export function mapMeasureGroup(grp: unknown, timezone: unknown): IngestRecord | undefined {
  if (!isRecord(grp)) return undefined;
  const grpid = idOf(grp.grpid);
  const date = int(grp.date);
  // category 2 is a user objective, not a measure.
  if (!grpid || date === undefined || int(grp.category) === 2) return undefined;
  const origin = originOf(grp.attrib);
  const metrics: ValueMetric[] = [];
  for (const m of arrayOf(grp.measures)) {
    if (!isRecord(m)) continue;
    const type = int(m.type);
    const value = typeof m.value === 'number' && Number.isFinite(m.value) ? m.value : undefined;
    const unit = int(m.unit);
    const metric = type === undefined ? undefined : MEASTYPE_METRICS[type];
    if (!metric || value === undefined || unit === undefined || Math.abs(unit) > 20) continue;
    metrics.push({ type: metric.type, unit: metric.unit, value: scaled(value, unit), origin });
  }
  if (metrics.length === 0) return undefined;
  const device = deviceOf(grp.model, grp.hash_deviceid);
  const offset = zoneOffsetSeconds(timezone, date);
  return {
    type: 'measurement',
    source: { type: 'withings', ...(device ? { device } : {}) },
    log_id: grpid,
    start_time: isoSeconds(date),
    end_time: isoSeconds(date),
    ...(offset !== undefined ? { utc_offset: offset } : {}),
    metrics,
  };
}

/** Maps one getmeas body; only groups taken within [start, end) are kept. */
export function mapGetmeasBody(body: Record<string, unknown>, window: FetchWindow): IngestRecord[] {
  const from = window.start.getTime() / 1000;
  const to = window.end.getTime() / 1000;
  const records: IngestRecord[] = [];
  for (const grp of arrayOf(body.measuregrps)) {
    const rec = mapMeasureGroup(grp, body.timezone);
    if (!rec) continue;
    const at = new Date(rec.start_time).getTime() / 1000;
    if (at >= from && at < to) records.push(rec);
  }
  return records;
}

export async function fetchMeasures(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const body = await callWithings(http, settings, accessToken, PATHS.measure, {
    action: 'getmeas',
    meastypes: REQUESTED_MEASTYPES,
    category: '1',
    startdate: String(Math.floor(window.start.getTime() / 1000)),
    // Withings' enddate is inclusive; ours is exclusive.
    enddate: String(Math.ceil(window.end.getTime() / 1000) - 1),
    ...offsetParam(window.cursor),
  });
  const nextCursor = nextCursorOf(body);
  return { records: mapGetmeasBody(body, window), ...(nextCursor ? { nextCursor } : {}) };
}
