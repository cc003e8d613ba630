/**
 * Heart rate (a sample data type, `heart_rate.sample_time.physical_time`) → one `intraday` record per
 * UTC day, `heart-rate:<YYYY-MM-DD>`. A record's samples replace the previous copy with the same
 * log_id, so each record holds everything Google has for its day: the window is widened to whole UTC
 * days and every page of it is read (10,000 a page, the documented maximum) before returning.
 */
import type { FetchResult, FetchWindow, IngestRecord, IngestRecordOf, ProviderHttp, ProviderSettings } from '../provider.port';
import { bearer, send } from './google-health-http';
import { badResponse, DAY_MS, optionalNumber, readDataPoints, readSampleTime, requireObject, startOfUtcDay, utcDay, utcTime } from './google-health-json';
import { listUrl, timeFilter } from './google-health-fetch';

const PAGE_SIZE = 10_000;
/** A day of one-second samples is 86,400 points (9 pages); this bounds a runaway pageToken loop. */
const MAX_PAGES = 20;
const MAX_SAMPLES = 1440;

export async function fetchHeartRate(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const from = startOfUtcDay(window.start.getTime());
  const to = Math.max(from + DAY_MS, startOfUtcDay(window.end.getTime() - 1) + DAY_MS);
  const filter = timeFilter('heart_rate.sample_time.physical_time', from, to);
  const rows: { at: number; bpm: number }[] = [];
  let token: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) throw badResponse(`heart-rate: more than ${MAX_PAGES} pages for one window`);
    const res = await send(http, { method: 'GET', url: listUrl(settings, 'heart-rate', filter, PAGE_SIZE, token), headers: bearer(accessToken) }, 'heart-rate');
    const { points, nextPageToken } = readDataPoints(res.body, 'heart-rate');
    for (const point of points) {
      const hr = requireObject(point.heartRate, 'heart-rate.heartRate');
      const { atMs } = readSampleTime(hr, 'heart-rate');
      const bpm = optionalNumber(hr, 'beatsPerMinute', 'heart-rate');
      if (bpm !== undefined && atMs >= from && atMs < to) rows.push({ at: atMs, bpm });
    }
    if (!nextPageToken) break;
    token = nextPageToken;
  }
  return { records: dayRecords(rows) };
}

/** Rows by UTC day; at most one sample a minute (the first Google gave), 1,440 a day. */
export function dayRecords(rows: { at: number; bpm: number }[]): IngestRecord[] {
  const byDay = new Map<number, Map<number, number>>();
  for (const { at, bpm } of rows) {
    const day = startOfUtcDay(at);
    const minutes = byDay.get(day) ?? new Map<number, number>();
    const minute = Math.floor(at / 60_000) * 60_000;
    if (!minutes.has(minute)) minutes.set(minute, bpm);
    byDay.set(day, minutes);
  }
  return [...byDay.entries()].sort(([a], [b]) => a - b).map(([day, m]) => dayRecord(day, [...m.entries()].sort(([a], [b]) => a - b)));
}

function dayRecord(day: number, samples: [number, number][]): IngestRecordOf<'intraday'> {
  return {
    type: 'intraday',
    source: { type: 'google_health' },
    log_id: `heart-rate:${utcDay(day)}`,
    start_time: utcTime(day),
    end_time: utcTime(day + DAY_MS),
    metrics: [{ type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: 'PT1M', samples: samples.slice(0, MAX_SAMPLES).map(([t, value]) => ({ time: utcTime(t), value })) }],
  };
}
