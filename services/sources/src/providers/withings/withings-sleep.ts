/**
 * Sleep v2 - Getsummary → `sleep` records: one per sleep summary (`id`, Withings' stable id),
 * from `startdate` to `enddate`, offset from the summary's own `timezone`. The summary has no
 * stage timeline (that is Sleep v2 - Get), so `stages` stays empty.
 */
import { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings, ValueMetric } from '../provider.port';
import { arrayOf, callWithings, idOf, int, isRecord, nextCursorOf, num, offsetParam, PATHS } from './withings-http';
import { inWindow, isoSeconds, paddedYmdRange, zoneOffsetSeconds } from './withings-time';

type Metric = ValueMetric;

/** summary `data` field → catalog metric (API reference, sleep_summary_object). */
const SLEEP_FIELDS: Record<string, { type: string; unit: string }> = {
  total_timeinbed: { type: 'in_bed_duration', unit: 's' },
  total_sleep_time: { type: 'sleep_duration', unit: 's' },
  lightsleepduration: { type: 'light_sleep_duration', unit: 's' },
  deepsleepduration: { type: 'deep_sleep_duration', unit: 's' },
  remsleepduration: { type: 'rem_sleep_duration', unit: 's' },
  sleep_latency: { type: 'time_to_fall_asleep', unit: 's' },
  wakeupduration: { type: 'awake_duration', unit: 's' },
  wakeupcount: { type: 'awake_count', unit: 'count' },
  sleep_score: { type: 'sleep_score', unit: 'percent' },
};
/** asleepduration replaces total_sleep_time for nights from an external source; durationtosleep is the deprecated sleep_latency. */
const FALLBACKS: Record<string, string> = { total_sleep_time: 'asleepduration', sleep_latency: 'durationtosleep' };

export const SLEEP_DATA_FIELDS = [...Object.keys(SLEEP_FIELDS), ...Object.values(FALLBACKS)].join(',');

export function mapSleepSummary(s: unknown): IngestRecord | undefined {
  if (!isRecord(s)) return undefined;
  const id = idOf(s.id);
  const start = int(s.startdate);
  const end = int(s.enddate);
  if (!id || start === undefined || end === undefined || end < start) return undefined;
  const data = isRecord(s.data) ? s.data : {};
  // model 16 is a tracker, 32 a Sleep Monitor (sleep_summary_object `model`): both devices.
  const origin: Metric['origin'] = int(s.model) === 16 || int(s.model) === 32 ? 'device' : 'unknown';
  const metrics: Metric[] = [];
  for (const [field, metric] of Object.entries(SLEEP_FIELDS)) {
    const value = num(data[field]) ?? (FALLBACKS[field] ? num(data[FALLBACKS[field]]) : undefined);
    if (value !== undefined) metrics.push({ type: metric.type, unit: metric.unit, value, origin });
  }
  const offset = zoneOffsetSeconds(s.timezone, start);
  return {
    type: 'sleep',
    source: { type: 'withings' },
    log_id: id,
    start_time: isoSeconds(start),
    end_time: isoSeconds(end),
    ...(offset !== undefined ? { utc_offset: offset } : {}),
    metrics,
  };
}

export async function fetchSleepSummaries(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const body = await callWithings(http, settings, accessToken, PATHS.sleepV2, {
    action: 'getsummary',
    ...paddedYmdRange(window.start, window.end),
    data_fields: SLEEP_DATA_FIELDS,
    ...offsetParam(window.cursor),
  });
  const records = arrayOf(body.series)
    .map(mapSleepSummary)
    .filter((r): r is IngestRecord => !!r && inWindow(new Date(r.start_time).getTime() / 1000, window.start, window.end));
  const nextCursor = nextCursorOf(body);
  return { records, ...(nextCursor ? { nextCursor } : {}) };
}
