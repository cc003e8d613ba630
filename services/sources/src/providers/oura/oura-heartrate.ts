/**
 * Oura's heart-rate time series (`/v2/usercollection/heartrate`) → one `intraday` record per UTC day.
 *
 * Why whole UTC days: a record's samples replace the previous copy with the same log_id, so a record
 * must always hold everything Oura has for its log_id. The fetch is therefore widened to whole UTC
 * days, every page of it is read before anything is returned, and each day becomes
 * `heartrate:<YYYY-MM-DD>` with all its samples: fetching the same day twice yields the same record
 * (or a fuller one once more data synced), never a partial copy that would shadow a complete one.
 */
import type { FetchResult, FetchWindow, IngestRecord, IngestRecordOf, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, send } from './oura-http';
import { badResponse, DAY_MS, instant, optionalNumber, readCollection, requireString, startOfUtcDay, utcDay, utcTime } from './oura-json';

/** One day of 5-minute samples is 288 rows; this bounds a runaway next_token loop on a bad answer. */
const MAX_PAGES = 100;
const MAX_SAMPLES = 1440;

/** Oura's documented example passes an explicit offset (`…T00:00:00-08:00`); ours is UTC's. */
const isoWithOffset = (ms: number) => new Date(ms).toISOString().slice(0, 19) + '+00:00';

export async function fetchHeartRate(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const from = startOfUtcDay(window.start.getTime());
  const to = Math.max(from + DAY_MS, startOfUtcDay(window.end.getTime() - 1) + DAY_MS);
  const rows: { at: number; bpm: number }[] = [];
  let token: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) throw badResponse(`heartrate: more than ${MAX_PAGES} pages for one window`);
    const url = apiUrl(settings, '/v2/usercollection/heartrate', { start_datetime: isoWithOffset(from), end_datetime: isoWithOffset(to), next_token: token });
    const res = await send(http, { method: 'GET', url, headers: bearer(accessToken) }, 'heartrate');
    const { data, nextToken } = readCollection(res.body, 'heartrate');
    for (const row of data) {
      const at = instant(requireString(row, 'timestamp', 'heartrate.data[]'), 'heartrate.timestamp');
      const bpm = optionalNumber(row, 'bpm', 'heartrate.data[]');
      // Rows outside the asked days (however Oura reads end_datetime) would make a partial day record.
      if (bpm !== undefined && at >= from && at < to) rows.push({ at, bpm });
    }
    if (!nextToken) break;
    token = nextToken;
  }
  return { records: dayRecords(rows) };
}

/** Rows grouped by UTC day, sorted, one sample per instant (the first Oura gave). */
export function dayRecords(rows: { at: number; bpm: number }[]): IngestRecord[] {
  const byDay = new Map<number, Map<number, number>>();
  for (const { at, bpm } of rows) {
    const day = startOfUtcDay(at);
    const samples = byDay.get(day) ?? new Map<number, number>();
    const second = Math.floor(at / 1000) * 1000;
    if (!samples.has(second)) samples.set(second, bpm);
    byDay.set(day, samples);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a - b)
    .map(([day, samples]) => dayRecord(day, [...samples.entries()].sort(([a], [b]) => a - b)));
}

function dayRecord(day: number, samples: [number, number][]): IngestRecordOf<'intraday'> {
  // Oura documents 5-minute increments; workout/live sources can be denser, then minute granularity.
  const dense = samples.some(([t], i) => i > 0 && t - samples[i - 1][0] < 5 * 60_000);
  let kept = samples;
  if (dense) {
    // The series holds at most 1,440 samples: keep the first of each minute, Oura's own value.
    const perMinute = new Map<number, [number, number]>();
    for (const s of samples) if (!perMinute.has(Math.floor(s[0] / 60_000))) perMinute.set(Math.floor(s[0] / 60_000), s);
    kept = [...perMinute.values()].slice(0, MAX_SAMPLES);
  }
  return {
    type: 'intraday',
    source: { type: 'oura' },
    log_id: `heartrate:${utcDay(day)}`,
    start_time: utcTime(day),
    end_time: utcTime(day + DAY_MS),
    // Oura's heart-rate timestamps are UTC and say nothing of the user's zone: no utc_offset.
    metrics: [
      {
        type: 'heart_rate',
        unit: 'bpm',
        origin: 'device',
        granularity: dense ? 'PT1M' : 'PT5M',
        samples: kept.map(([t, value]) => ({ time: utcTime(t), value })),
      },
    ],
  };
}
