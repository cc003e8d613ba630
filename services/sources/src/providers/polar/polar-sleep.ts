/**
 * Sleep (`GET /v3/users/sleep`): the nights of the last 28 days in one answer `{nights: [...]}`,
 * kept where the sleep's start falls in the window. A night has no id of its own: its `date` ("Result
 * date of the sleep") is Polar's key for it (`/v3/users/sleep/{date}`), so log_id is `sleep:<date>`.
 */
import type { FetchResult, FetchWindow, IngestRecordOf, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, send } from './polar-http';
import { badResponse, Json, optionalNumber, optionalObject, parseJson, requireArray, requireObject, requireString } from './polar-json';
import { inWindow, metric, SOURCE } from './polar-records';
import { DAY_MS, instantWithOffset, requireDay, utcTime } from './polar-time';

export async function fetchSleep(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v3/users/sleep'), headers: bearer(accessToken) }, 'sleep');
  if (res.status === 204 || res.body.trim() === '') return { records: [] };
  const root = requireObject(parseJson(res.body, 'sleep', res.status), 'sleep');
  const nights = root.nights === undefined || root.nights === null ? [] : requireArray(root.nights, 'sleep.nights');
  return { records: inWindow(nights.map((n, i) => mapSleep(requireObject(n, `sleep.nights[${i}]`))), window) };
}

type Stage = 'awake' | 'light' | 'deep' | 'rem';
/** Hypnogram codes: 0 WAKE, 1 REM, 2 LIGHTER NON-REM (N1), 3 LIGHT NON-REM (N2), 4 DEEP NON-REM (N3), 5 UNKNOWN. */
const HYPNOGRAM: Record<number, Stage | undefined> = { 0: 'awake', 1: 'rem', 2: 'light', 3: 'light', 4: 'deep', 5: undefined };
const MAX_STAGES = 500;

/**
 * The hypnogram's keys are `HH:MM` clock times of the night in the sleep's own offset; each stage
 * lasts until the next key or the end of the sleep. A key earlier than the start (less one minute:
 * keys drop the seconds) belongs to the next calendar day. Unknown (5, or any undocumented code)
 * leaves a gap; adjacent equal
 * stages merge; a night with more than 500 changes keeps its totals and drops the stage list.
 */
export function sleepStages(hypnogram: Json | undefined, startMs: number, endMs: number, offsetS: number): { stage: Stage; start_time: string; end_time: string }[] {
  if (!hypnogram) return [];
  const localStart = startMs + offsetS * 1000;
  const dayStart = Math.floor(localStart / DAY_MS) * DAY_MS;
  const points: { at: number; stage: Stage | undefined }[] = [];
  for (const [key, code] of Object.entries(hypnogram)) {
    const m = /^(\d{2}):(\d{2})$/.exec(key);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) throw badResponse(`sleep.hypnogram has an unreadable key ${key.slice(0, 10)}`);
    let local = dayStart + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
    if (local < localStart - 60_000) local += DAY_MS;
    // A code outside 0–5 (Polar's own example has a 6) is read as UNKNOWN: a gap, not a failed night.
    points.push({ at: Math.max(local - offsetS * 1000, startMs), stage: typeof code === 'number' ? HYPNOGRAM[code] : undefined });
  }
  points.sort((a, b) => a.at - b.at);
  const stages: { stage: Stage; start: number; end: number }[] = [];
  points.forEach((p, i) => {
    const end = Math.min(i + 1 < points.length ? points[i + 1].at : endMs, endMs);
    if (!p.stage || end <= p.at) return;
    const last = stages[stages.length - 1];
    if (last && last.stage === p.stage && last.end === p.at) last.end = end;
    else stages.push({ stage: p.stage, start: p.at, end });
  });
  if (stages.length > MAX_STAGES) return [];
  return stages.map((s) => ({ stage: s.stage, start_time: utcTime(s.start), end_time: utcTime(s.end) }));
}

/**
 * sleep → `sleep` from sleep_start_time to sleep_end_time, utc_offset from their own offset.
 * sleep_duration is the sum of the stage totals Polar gives (light + deep + REM + unrecognised
 * sleep), only when all four are present; awake_duration is total_interruption_duration ("time you
 * spent awake between when you fell asleep and when you woke up").
 */
export function mapSleep(n: Json): IngestRecordOf<'sleep'> {
  const what = 'sleep';
  const date = requireDay(requireString(n, 'date', what), `${what}.date`);
  const start = instantWithOffset(requireString(n, 'sleep_start_time', what), `${what}.sleep_start_time`);
  const end = instantWithOffset(requireString(n, 'sleep_end_time', what), `${what}.sleep_end_time`);
  if (end.ms < start.ms) throw badResponse(`sleep ${date} ends before it starts`);
  if (Math.abs(start.offsetS) > 14 * 3600) throw badResponse(`sleep ${date} has an impossible offset`);
  const num = (key: string) => optionalNumber(n, key, what);
  const [light, deep, rem, unknown] = [num('light_sleep'), num('deep_sleep'), num('rem_sleep'), num('unrecognized_sleep_stage')];
  const asleep = light !== undefined && deep !== undefined && rem !== undefined && unknown !== undefined ? light + deep + rem + unknown : undefined;
  const score = num('sleep_score');
  const hypnogram = optionalObject(n, 'hypnogram', what);
  return {
    type: 'sleep',
    source: SOURCE,
    log_id: `sleep:${date}`,
    start_time: utcTime(start.ms),
    end_time: utcTime(end.ms),
    utc_offset: start.offsetS,
    metrics: [
      ...metric('sleep_duration', 's', asleep),
      ...metric('light_sleep_duration', 's', light),
      ...metric('deep_sleep_duration', 's', deep),
      ...metric('rem_sleep_duration', 's', rem),
      ...metric('awake_duration', 's', num('total_interruption_duration')),
      // Polar's sleep score is on a 1–100 scale, the catalog's percent.
      ...metric('sleep_score', 'percent', score !== undefined && score >= 0 && score <= 100 ? score : undefined),
    ],
    stages: sleepStages(hypnogram, start.ms, end.ms, start.offsetS),
  };
}
