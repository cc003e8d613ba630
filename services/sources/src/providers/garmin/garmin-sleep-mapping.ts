/**
 * Sleep summaries (Health API "Sleep Summaries"): one per night, sent again as Garmin refines it
 * (`validation` AUTO_TENTATIVE → AUTO_FINAL → ENHANCED_FINAL …), so its key is the night's
 * `calendarDate` and each version replaces the last. Stages come from `sleepLevelsMap` (`deep`,
 * `light`, `rem`, `awake`: lists of `{startTimeInSeconds, endTimeInSeconds}`); Garmin's
 * `unmeasurable` ranges stay gaps. `durationInSeconds` "excludes awake/unmeasurable" time: it is
 * the time asleep, and the record ends where the last stage ends (or after asleep + awake time).
 */
import type { IngestRecordOf } from '../provider.port';
import { badResponse, Json, optionalNumber, optionalObject, requireArray, requireObject } from './garmin-json';
import { durationOf, metric, offsetOf, requireDate, requireSeconds, SOURCE, utcTime } from './garmin-records';

type Stage = 'awake' | 'light' | 'deep' | 'rem';
const LEVELS: readonly Stage[] = ['deep', 'light', 'rem', 'awake'];
const MAX_STAGES = 500;

function stagesOf(levels: Json | undefined, what: string): { stage: Stage; start: number; end: number }[] {
  if (!levels) return [];
  const out: { stage: Stage; start: number; end: number }[] = [];
  for (const stage of LEVELS) {
    if (levels[stage] === undefined || levels[stage] === null) continue;
    requireArray(levels[stage], `${what}.sleepLevelsMap.${stage}`).forEach((r, i) => {
      const range = requireObject(r, `${what}.sleepLevelsMap.${stage}[${i}]`);
      const start = requireSeconds(range, 'startTimeInSeconds', `${what}.sleepLevelsMap.${stage}`);
      const end = requireSeconds(range, 'endTimeInSeconds', `${what}.sleepLevelsMap.${stage}`);
      if (end < start) throw badResponse(`${what}.sleepLevelsMap.${stage}[${i}] ends before it starts`);
      if (end > start) out.push({ stage, start, end });
    });
  }
  return out.sort((a, b) => a.start - b.start);
}

export function mapSleep(s: Json): IngestRecordOf<'sleep'> {
  const what = 'sleeps';
  const date = requireDate(s, what);
  const start = requireSeconds(s, 'startTimeInSeconds', what);
  const asleep = durationOf(s, 'durationInSeconds', what, 86_400);
  const num = (k: string) => optionalNumber(s, k, what);
  const awake = num('awakeDurationInSeconds');
  const stages = stagesOf(optionalObject(s, 'sleepLevelsMap', what), what);
  const end = Math.max(start + asleep + (awake ?? 0), ...stages.map((x) => x.end));
  if (end - start > 86_400) throw badResponse(`${what} ${date} lasts more than a day`);
  const score = optionalObject(s, 'overallSleepScore', what);
  const scoreValue = score ? optionalNumber(score, 'value', `${what}.overallSleepScore`) : undefined;
  return {
    type: 'sleep',
    source: SOURCE,
    log_id: `sleeps:${date}`,
    start_time: utcTime(start * 1000),
    end_time: utcTime(end * 1000),
    utc_offset: offsetOf(s, 'startTimeOffsetInSeconds', what),
    metrics: [
      ...metric('sleep_duration', 's', asleep),
      ...metric('deep_sleep_duration', 's', num('deepSleepDurationInSeconds')),
      ...metric('light_sleep_duration', 's', num('lightSleepDurationInSeconds')),
      ...metric('rem_sleep_duration', 's', num('remSleepInSeconds')),
      ...metric('awake_duration', 's', awake),
      // Garmin's score is 0–100 (Excellent 90–100 … Poor < 60): the catalog's percent.
      ...metric('sleep_score', 'percent', scoreValue !== undefined && scoreValue <= 100 ? scoreValue : undefined),
    ],
    stages: stages.length > MAX_STAGES ? [] : stages.map((x) => ({ stage: x.stage, start_time: utcTime(x.start * 1000), end_time: utcTime(x.end * 1000) })),
  };
}
