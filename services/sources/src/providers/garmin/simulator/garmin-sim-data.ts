/**
 * A Garmin user's summaries as the Health API documents them (Daily, Epoch, Sleep, Activity, Body
 * Composition and Pulse Ox summaries: field names, Unix-second times with the device's offset,
 * `timeOffset…` maps), each with the time it was uploaded (a ping names uploads, a backfill names
 * summary times). Realistic volumes: a day's heart rate every 15 s, 96 epochs a day.
 */
export type SummaryType = 'dailies' | 'epochs' | 'sleeps' | 'activities' | 'bodyComps' | 'pulseox';
export const SUMMARY_TYPES: readonly SummaryType[] = ['dailies', 'epochs', 'sleeps', 'activities', 'bodyComps', 'pulseox'];

export interface SimSummary {
  type: SummaryType;
  /** The summary's own time (what a backfill range selects). */
  at: number;
  /** Upload time, Unix seconds. */
  uploadedAt: number;
  body: Record<string, unknown>;
  /** The log_ids of the records it becomes (for the suite). */
  logIds: string[];
  /** [record type, start ms] of each record it becomes. */
  records: [string, number][];
}

export interface GarminAccount {
  userId: string;
  offsetS: number;
  summaries: SimSummary[];
  /** Summaries added since the last ping of their type. */
  pending: SimSummary[];
  seq: number;
}

const DAY_S = 86_400;

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const date = (localS: number) => new Date(localS * 1000).toISOString().slice(0, 10);

export function daily(a: GarminAccount, dayStartUtc: number, nowS: number, r: () => number): SimSummary {
  const duration = Math.min(DAY_S, nowS - dayStartUtc);
  const hr: Record<string, number> = {};
  for (let t = 0; t < duration; t += 15) hr[String(t)] = 55 + Math.round(r() * 60);
  const calendarDate = date(dayStartUtc + a.offsetS);
  return {
    type: 'dailies',
    at: dayStartUtc,
    uploadedAt: dayStartUtc + duration,
    body: {
      summaryId: `x${a.userId}-${dayStartUtc.toString(16)}-${duration.toString(16)}`,
      calendarDate,
      startTimeInSeconds: dayStartUtc,
      startTimeOffsetInSeconds: a.offsetS,
      durationInSeconds: duration,
      activityType: 'WALKING',
      steps: Math.round(2000 + r() * 12000),
      distanceInMeters: Math.round(1500 + r() * 9000),
      activeTimeInSeconds: Math.round(1800 + r() * 7200),
      activeKilocalories: Math.round(200 + r() * 900),
      bmrKilocalories: 1650,
      floorsClimbed: Math.round(r() * 20),
      minHeartRateInBeatsPerMinute: 52,
      maxHeartRateInBeatsPerMinute: 160,
      averageHeartRateInBeatsPerMinute: 72,
      restingHeartRateInBeatsPerMinute: Math.round(50 + r() * 15),
      timeOffsetHeartRateSamples: hr,
      averageStressLevel: 35,
    },
    logIds: [`dailies:${calendarDate}`, `heart_rate:${calendarDate}`],
    records: [['summary', dayStartUtc * 1000], ['intraday', dayStartUtc * 1000]],
  };
}

export function epoch(a: GarminAccount, startS: number, r: () => number): SimSummary {
  return {
    type: 'epochs',
    at: startS,
    uploadedAt: startS + 900,
    body: {
      summaryId: `x${a.userId}-${startS.toString(16)}`,
      activityType: 'WALKING',
      activeKilocalories: Math.round(r() * 40),
      steps: Math.round(r() * 900),
      distanceInMeters: Math.round(r() * 700),
      durationInSeconds: 900,
      activeTimeInSeconds: Math.round(r() * 900),
      startTimeInSeconds: startS,
      startTimeOffsetInSeconds: a.offsetS,
      met: 2.5,
      intensity: 'ACTIVE',
    },
    logIds: [`epochs:${startS}:WALKING`],
    records: [['intraday', startS * 1000]],
  };
}

export function sleep(a: GarminAccount, startS: number, r: () => number): SimSummary {
  const deep = 3600 + Math.round(r() * 1800);
  const light = 12_000 + Math.round(r() * 3600);
  const rem = 5400;
  const awake = 900;
  const levels = { deep: [{ startTimeInSeconds: startS, endTimeInSeconds: startS + deep }], light: [{ startTimeInSeconds: startS + deep, endTimeInSeconds: startS + deep + light }], rem: [{ startTimeInSeconds: startS + deep + light, endTimeInSeconds: startS + deep + light + rem }], awake: [{ startTimeInSeconds: startS + deep + light + rem, endTimeInSeconds: startS + deep + light + rem + awake }] };
  const end = startS + deep + light + rem + awake;
  const calendarDate = date(end + a.offsetS);
  return {
    type: 'sleeps',
    at: startS,
    uploadedAt: end + 600,
    body: {
      summaryId: `x${a.userId}-${startS.toString(16)}`,
      calendarDate,
      durationInSeconds: deep + light + rem,
      startTimeInSeconds: startS,
      startTimeOffsetInSeconds: a.offsetS,
      deepSleepDurationInSeconds: deep,
      lightSleepDurationInSeconds: light,
      remSleepInSeconds: rem,
      awakeDurationInSeconds: awake,
      sleepLevelsMap: levels,
      validation: 'ENHANCED_FINAL',
      overallSleepScore: { value: 60 + Math.round(r() * 35), qualifierKey: 'GOOD' },
    },
    logIds: [`sleeps:${calendarDate}`],
    records: [['sleep', startS * 1000]],
  };
}

export function activity(a: GarminAccount, startS: number, r: () => number): SimSummary {
  const id = `${a.userId}-act-${++a.seq}`;
  const duration = 1800 + Math.round(r() * 3600);
  return {
    type: 'activities',
    at: startS,
    uploadedAt: startS + duration,
    body: {
      summaryId: id,
      activityId: 5_000_000 + a.seq,
      activityType: a.seq % 2 ? 'RUNNING' : 'CYCLING',
      activityName: a.seq % 2 ? 'Morning Run' : 'Ride',
      startTimeInSeconds: startS,
      startTimeOffsetInSeconds: a.offsetS,
      durationInSeconds: duration,
      distanceInMeters: Math.round(5000 + r() * 20000),
      averageSpeedInMetersPerSecond: 3.1,
      averageHeartRateInBeatsPerMinute: 140,
      maxHeartRateInBeatsPerMinute: 172,
      activeKilocalories: Math.round(300 + r() * 500),
      totalElevationGainInMeters: Math.round(r() * 300),
      deviceName: 'forerunner955',
      manual: false,
    },
    logIds: [`activities:${id}`],
    records: [['workout', startS * 1000]],
  };
}

export function bodyComp(a: GarminAccount, atS: number, r: () => number): SimSummary {
  const id = `x${a.userId}-bc-${atS.toString(16)}`;
  return {
    type: 'bodyComps',
    at: atS,
    uploadedAt: atS + 60,
    body: { summaryId: id, measurementTimeInSeconds: atS, measurementTimeOffsetInSeconds: a.offsetS, weightInGrams: 70_000 + Math.round(r() * 3000), bodyFatInPercent: 18.5, bodyMassIndex: 22.4 },
    logIds: [`bodyComps:${id}`],
    records: [['measurement', atS * 1000]],
  };
}

export function pulseOx(a: GarminAccount, startS: number, r: () => number): SimSummary {
  const id = `x${a.userId}-spo2-${startS.toString(16)}`;
  const values: Record<string, number> = {};
  for (let t = 0; t < 4 * 3600; t += 60) values[String(t)] = 92 + Math.round(r() * 7);
  return {
    type: 'pulseox',
    at: startS,
    uploadedAt: startS + 4 * 3600 + 600,
    body: { summaryId: id, calendarDate: date(startS + a.offsetS), startTimeInSeconds: startS, durationInSeconds: 4 * 3600, startTimeOffsetInSeconds: a.offsetS, timeOffsetSpo2Values: values, onDemand: false },
    logIds: [`pulseox:${id}`],
    records: [['intraday', startS * 1000]],
  };
}

/** `days` days of data ending at `now`: a day's summary, epochs, a night, an activity every other day, a weigh-in every third. */
export function seedAccount(userId: string, offsetS: number, days: number, now: Date, seed: number): GarminAccount {
  const a: GarminAccount = { userId, offsetS, summaries: [], pending: [], seq: 0 };
  const r = rng(seed);
  const nowS = Math.floor(now.getTime() / 1000);
  const firstLocalDay = Math.floor((nowS + offsetS) / DAY_S) - days + 1;
  for (let d = 0; d < days; d++) {
    const dayStart = (firstLocalDay + d) * DAY_S - offsetS;
    if (dayStart >= nowS) break;
    a.summaries.push(daily(a, dayStart, nowS, r));
    for (let t = dayStart; t + 900 <= Math.min(nowS, dayStart + DAY_S); t += 900) a.summaries.push(epoch(a, t, r));
    const night = dayStart - 3600;
    if (night + 8 * 3600 < nowS) a.summaries.push(sleep(a, night, r), pulseOx(a, night, r));
    if (d % 2 === 0 && dayStart + 7 * 3600 + 5400 < nowS) a.summaries.push(activity(a, dayStart + 7 * 3600, r));
    if (d % 3 === 0 && dayStart + 6 * 3600 < nowS) a.summaries.push(bodyComp(a, dayStart + 6 * 3600, r));
  }
  return a;
}

/** Records per Wellstream type whose start falls in [from, to). */
export function countRecords(a: GarminAccount, from: Date, to: Date): Partial<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of a.summaries) for (const [type, start] of s.records) if (start >= from.getTime() && start < to.getTime()) out[type] = (out[type] ?? 0) + 1;
  return out;
}
