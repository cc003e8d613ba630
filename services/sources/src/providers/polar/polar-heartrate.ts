/**
 * Continuous heart rate (`GET /v3/users/continuous-heart-rate/{date}`) → one `intraday` record per
 * day, `continuous_heart_rate:<date>`, with every sample of that day: fetching a day again gives the
 * same (or a fuller) record, never a partial one that would shadow a complete copy.
 *
 * Polar's day and `sample_time` (`00:02:08`) are "Device time used for measurement": local clock
 * time with no offset. They are placed with the user's profile time zone when the service knows it,
 * else read as UTC; no utc_offset is claimed either way. One request per day: each call fetches one
 * day and names the next as its cursor. The range variant (`?from&to`) is not used: its documented
 * answer is a single day's object, so how several days come back is not documented.
 */
import type { FetchContext, FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, failureOf } from './polar-http';
import { badResponse, optionalNumber, parseJson, requireArray, requireObject, requireString } from './polar-json';
import { inWindow, SOURCE } from './polar-records';
import { DAY_MS, localDayOf, localToInstant, requireDay, utcTime } from './polar-time';

const MAX_SAMPLES = 1440;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

export async function fetchHeartRateDay(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow, ctx: FetchContext): Promise<FetchResult> {
  const zone = ctx.userTimezone;
  const first = localDayOf(window.start.getTime(), zone);
  const last = localDayOf(window.end.getTime() - 1, zone);
  const day = window.cursor && /^\d{4}-\d{2}-\d{2}$/.test(window.cursor) && window.cursor >= first ? window.cursor : first;
  if (day > last) return { records: [] };
  const more = nextDay(day) <= last ? { nextCursor: nextDay(day) } : {};
  const res = await http.send({ method: 'GET', url: apiUrl(settings, `/v3/users/continuous-heart-rate/${day}`), headers: bearer(accessToken) });
  // 404 is "No data found for date"; 204 is read the same way.
  if (res.status === 404 || res.status === 204) return { records: [], ...more };
  const failure = failureOf(res, 'continuous heart rate');
  if (failure) throw failure;
  const record = mapHeartRateDay(requireObject(parseJson(res.body, 'continuous heart rate', res.status), 'continuous heart rate'), zone);
  return { records: record ? inWindow([record], window) : [], ...more };
}

/** An intraday series record (the port types metrics as value metrics; intraday carries series). */
interface SeriesRecord extends Omit<IngestRecord, 'metrics'> {
  metrics: { type: 'heart_rate'; unit: 'bpm'; origin: 'device'; granularity: 'PT1M' | 'PT5M'; samples: { time: string; value: number }[] }[];
}

/** continuous-heartrate → an intraday heart_rate series of its day; undefined for a day without samples. */
export function mapHeartRateDay(o: Record<string, unknown>, zone: string | null | undefined): IngestRecord | undefined {
  const what = 'continuous heart rate';
  const day = requireDay(requireString(o, 'date', what), `${what}.date`);
  const raw = o.heart_rate_samples === undefined || o.heart_rate_samples === null ? [] : requireArray(o.heart_rate_samples, `${what}.heart_rate_samples`);
  const bySecond = new Map<number, number>();
  for (const [i, item] of raw.entries()) {
    const s = requireObject(item, `${what}.heart_rate_samples[${i}]`);
    const time = requireString(s, 'sample_time', `${what}.heart_rate_samples[${i}]`);
    const m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) throw badResponse(`${what} sample_time ${time.slice(0, 12)} is not a clock time`);
    const bpm = optionalNumber(s, 'heart_rate', `${what}.heart_rate_samples[${i}]`);
    if (bpm === undefined || bpm <= 0) continue;
    const clock = Date.parse(`${day}T${m[1]}:${m[2]}:${m[3] ?? '00'}Z`);
    const at = localToInstant(clock, zone);
    if (!bySecond.has(at)) bySecond.set(at, bpm);
  }
  if (bySecond.size === 0) return undefined;
  let samples = [...bySecond.entries()].sort(([a], [b]) => a - b);
  // Polar: 5-minute samples by default, "periods with samples more often" possible: then per minute.
  const dense = samples.some(([t], i) => i > 0 && t - samples[i - 1][0] < 5 * 60_000 - 30_000);
  if (dense) {
    const perMinute = new Map<number, [number, number]>();
    for (const s of samples) if (!perMinute.has(Math.floor(s[0] / 60_000))) perMinute.set(Math.floor(s[0] / 60_000), s);
    samples = [...perMinute.values()];
  }
  const midnight = Date.parse(`${day}T00:00:00Z`);
  const record: SeriesRecord = {
    type: 'intraday',
    source: SOURCE,
    log_id: `continuous_heart_rate:${day}`,
    start_time: utcTime(localToInstant(midnight, zone)),
    end_time: utcTime(localToInstant(midnight + DAY_MS, zone)),
    metrics: [{ type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: dense ? 'PT1M' : 'PT5M', samples: samples.slice(0, MAX_SAMPLES).map(([t, value]) => ({ time: utcTime(t), value })) }],
  };
  return record as unknown as IngestRecord;
}
