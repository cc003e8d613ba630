/**
 * Continuous heart rate → one `intraday` record per day, `continuous_heart_rate:<date>`, with every
 * sample of that day: fetching a day again gives the same (or a fuller) record, never a partial one
 * that would shadow a complete copy.
 *
 * Polar's day and `sample_time` (`00:02:08`) are "Device time used for measurement": local clock
 * time with no offset. They are placed with the user's profile time zone when the service knows it,
 * else read as UTC; no utc_offset is claimed either way.
 *
 * One request per window: "Get Continuous Heart rate samples with range", `GET
 * /v3/users/continuous-heart-rate?from&to`, both dates inclusive. Its documented example range is 28
 * days (2022-01-01…2022-01-28) and no longer range is stated, so a longer window asks 28 days at a
 * time (the cursor names the next `from`). Its documented 200 example is one day's object, which
 * cannot hold several days, so the answer is read either as that object or as a list of them
 * (`heart_rates`, or a bare array). 404 ("No data found", the per-date form's documented answer)
 * and 204 are no data, not an error.
 */
import type { FetchContext, FetchResult, FetchWindow, IngestRecordOf, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, failureOf } from './polar-http';
import { badResponse, optionalNumber, parseJson, requireArray, requireObject, requireString } from './polar-json';
import { inWindow, SOURCE } from './polar-records';
import { DAY_MS, localDayOf, localToInstant, requireDay, utcTime } from './polar-time';

const MAX_SAMPLES = 1440;
/** Days one range request asks for (the documented example's range). */
export const RANGE_DAYS = 28;
const MAX_DAYS_PER_ANSWER = 62;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

export async function fetchHeartRate(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow, ctx: FetchContext): Promise<FetchResult> {
  const zone = ctx.userTimezone;
  const first = localDayOf(window.start.getTime(), zone);
  const last = localDayOf(window.end.getTime() - 1, zone);
  const from = window.cursor && /^\d{4}-\d{2}-\d{2}$/.test(window.cursor) && window.cursor >= first ? window.cursor : first;
  if (from > last) return { records: [] };
  const rangeEnd = addDays(from, RANGE_DAYS - 1);
  const to = rangeEnd < last ? rangeEnd : last;
  const more = to < last ? { nextCursor: addDays(to, 1) } : {};
  const res = await http.send({ method: 'GET', url: apiUrl(settings, '/v3/users/continuous-heart-rate', { from, to }), headers: bearer(accessToken) });
  if (res.status === 404 || res.status === 204 || (res.status === 200 && res.body.trim() === '')) return { records: [], ...more };
  const failure = failureOf(res, 'continuous heart rate');
  if (failure) throw failure;
  const records = heartRateDays(parseJson(res.body, 'continuous heart rate', res.status))
    .map((day) => mapHeartRateDay(day, zone))
    .filter((r): r is IngestRecordOf<'intraday'> => r !== undefined);
  return { records: inWindow(records, window), ...more };
}

/** The day objects of a range answer: one `continuous-heartrate`, or a list of them. */
export function heartRateDays(body: unknown): Record<string, unknown>[] {
  const what = 'continuous heart rate';
  const list = Array.isArray(body) ? body : requireObject(body, what).heart_rates !== undefined ? requireArray(requireObject(body, what).heart_rates, `${what}.heart_rates`) : [body];
  if (list.length > MAX_DAYS_PER_ANSWER) throw badResponse(`${what} answered more than ${MAX_DAYS_PER_ANSWER} days`);
  return list.map((d, i) => requireObject(d, `${what}[${i}]`));
}

/** continuous-heartrate → an intraday heart_rate series of its day; undefined for a day without samples. */
export function mapHeartRateDay(o: Record<string, unknown>, zone: string | null | undefined): IngestRecordOf<'intraday'> | undefined {
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
  return {
    type: 'intraday',
    source: SOURCE,
    log_id: `continuous_heart_rate:${day}`,
    start_time: utcTime(localToInstant(midnight, zone)),
    end_time: utcTime(localToInstant(midnight + DAY_MS, zone)),
    metrics: [{ type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: dense ? 'PT1M' : 'PT5M', samples: samples.slice(0, MAX_SAMPLES).map(([t, value]) => ({ time: utcTime(t), value })) }],
  };
}
