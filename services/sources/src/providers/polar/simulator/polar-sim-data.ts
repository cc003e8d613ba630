/**
 * The Polar simulator's accounts and their data, shaped as the AccessLink v3 reference documents
 * them (exerciseHashId, sleep, activity-summary, continuous-heartrate, physical-information), plus
 * the record counts that data should map to, computed here from the simulator's own instants.
 *
 * Times are written the way the documents say: exercise `start_time` local with
 * `start_time_utc_offset` in minutes; sleep times with their offset; activity `start_time`/`end_time`
 * "in UTC" (written without a zone, like the documented example); continuous heart rate as a local
 * date with device-local `sample_time`s; physical info `created` in UTC with `Z`.
 */
export type Doc = Record<string, unknown>;

export interface Exercise {
  doc: Doc;
  startMs: number;
  uploadMs: number;
}
export interface Night {
  doc: Doc;
  date: string;
  startMs: number;
}
export interface ActivityDay {
  doc: Doc;
  localDay: string;
  startMs: number;
}
export interface HeartDay {
  date: string;
  samples: { heart_rate: number; sample_time: string }[];
}
export interface PhysicalInfo {
  id: number;
  createdMs: number;
  doc: Doc;
}

export interface PolarAccount {
  userId: number;
  /** The user's UTC offset in minutes (no DST: fixed per simulated user). */
  offsetMin: number;
  /** When the user was registered with our client (exercises uploaded before are not listed); null: not registered. */
  registeredAt: number | null;
  consentsMissing: boolean;
  exercises: Exercise[];
  nights: Night[];
  activities: ActivityDay[];
  heart: Map<string, HeartDay>;
  /** Physical infos not yet committed in a transaction, and every one ever seeded (for counts). */
  physicalPending: PhysicalInfo[];
  physicalAll: PhysicalInfo[];
  lastEvent: Map<string, Doc>;
}

export const DAY = 86_400_000;
const MIN = 60_000;

/** A small deterministic generator, so a seeded account is the same on every run. */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return (lo: number, hi: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + (s / 2 ** 32) * (hi - lo);
  };
}
export type Rng = ReturnType<typeof rng>;

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
export const offsetText = (min: number) => `${min < 0 ? '-' : '+'}${pad(Math.trunc(min / 60))}:${pad(min % 60)}`;
/** The local clock reading of an instant, `YYYY-MM-DDThh:mm:ss` (no zone). */
export const localClock = (ms: number, offsetMin: number) => new Date(ms + offsetMin * MIN).toISOString().slice(0, 19);
export const localDay = (ms: number, offsetMin: number) => localClock(ms, offsetMin).slice(0, 10);
export const localMidnight = (day: string, offsetMin: number) => Date.parse(`${day}T00:00:00Z`) - offsetMin * MIN;
const utcClock = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const isoDuration = (s: number) => `PT${Math.floor(s / 3600) ? `${Math.floor(s / 3600)}H` : ''}${Math.floor((s % 3600) / 60)}M${s % 60 ? `${s % 60}S` : ''}`;

let exerciseSeq = 0x2ac312f;
const SPORTS: [string, string][] = [['RUNNING', 'RUNNING'], ['CYCLING', 'ROAD_BIKING'], ['WALKING', 'WALKING'], ['OTHER', 'STRENGTH_TRAINING'], ['OTHER', 'YOGA'], ['OTHER', 'WATERSPORTS_WATERSKI']];

export function exercise(a: PolarAccount, startMs: number, minutes: number, r: Rng): Exercise {
  const id = (exerciseSeq++).toString(16).toUpperCase();
  const seconds = Math.round(minutes * 60);
  const uploadMs = startMs + seconds * 1000 + 10 * MIN;
  const [sport, detailed] = SPORTS[Math.floor(r(0, SPORTS.length))];
  const doc: Doc = {
    id,
    upload_time: new Date(uploadMs).toISOString(),
    polar_user: `https://www.polaraccesslink.com/v3/users/${a.userId}`,
    device: 'Polar Vantage V2',
    device_id: '1111AAAA',
    start_time: localClock(startMs, a.offsetMin),
    start_time_utc_offset: a.offsetMin,
    duration: isoDuration(seconds),
    calories: Math.round(minutes * r(6, 11)),
    distance: sport === 'OTHER' ? undefined : Math.round(minutes * r(80, 300)),
    heart_rate: { average: Math.round(r(110, 150)), maximum: Math.round(r(155, 185)) },
    training_load: Math.round(r(20, 200) * 100) / 100,
    sport,
    has_route: sport !== 'OTHER',
    detailed_sport_info: detailed,
    'running-index': sport === 'RUNNING' ? Math.round(r(40, 60)) : undefined,
  };
  return { doc: JSON.parse(JSON.stringify(doc)) as Doc, startMs, uploadMs };
}

/** A night ending on local day `date`, with hypnogram changes and 5-minute heart-rate samples keyed `HH:MM`. */
export function night(a: PolarAccount, date: string, r: Rng): Night {
  const startMs = localMidnight(date, a.offsetMin) - Math.round(r(-40, 90)) * MIN;
  const endMs = localMidnight(date, a.offsetMin) + Math.round(r(6 * 60, 8 * 60)) * MIN;
  const hypnogram: Record<string, number> = {};
  const heart: Record<string, number> = {};
  const totals = [0, 0, 0, 0, 0, 0];
  for (let t = startMs, code = 2; t < endMs; ) {
    const key = localClock(t, a.offsetMin).slice(11, 16);
    if (!(key in hypnogram)) hypnogram[key] = code;
    const len = Math.min(Math.round(r(8, 45)) * MIN, endMs - t);
    totals[code] += len / 1000;
    t += len;
    code = [1, 2, 3, 4, 0, 3, 2, 5][Math.floor(r(0, 8))];
  }
  for (let t = startMs + 2 * MIN; t < endMs; t += 5 * MIN) heart[localClock(t, a.offsetMin).slice(11, 16)] = Math.round(r(48, 70));
  const doc: Doc = {
    polar_user: `https://www.polaraccesslink.com/v3/users/${a.userId}`,
    date,
    sleep_start_time: localClock(startMs, a.offsetMin) + offsetText(a.offsetMin),
    sleep_end_time: localClock(endMs, a.offsetMin) + offsetText(a.offsetMin),
    device_id: '1111AAAA',
    continuity: Math.round(r(10, 50)) / 10,
    continuity_class: Math.round(r(1, 5)),
    light_sleep: Math.round(totals[2] + totals[3]),
    deep_sleep: Math.round(totals[4]),
    rem_sleep: Math.round(totals[1]),
    unrecognized_sleep_stage: Math.round(totals[5]),
    sleep_score: Math.round(r(55, 95)),
    total_interruption_duration: Math.round(totals[0]),
    sleep_charge: Math.round(r(1, 5)),
    sleep_goal: 28800,
    sleep_rating: 0,
    short_interruption_duration: Math.round(totals[0] / 2),
    long_interruption_duration: Math.round(totals[0] / 2),
    sleep_cycles: Math.round(r(3, 6)),
    group_duration_score: Math.round(r(50, 100)),
    group_solidity_score: Math.round(r(50, 100)),
    group_regeneration_score: Math.round(r(50, 100)),
    hypnogram,
    heart_rate_samples: heart,
  };
  return { doc, date, startMs };
}

/** The activity summary of local day `day`, up to `untilMs` (the day so far, when it is today). */
export function activity(a: PolarAccount, day: string, untilMs: number, r: Rng): ActivityDay {
  const startMs = localMidnight(day, a.offsetMin) + Math.round(r(6 * 60, 9 * 60)) * MIN;
  const endMs = Math.min(localMidnight(day, a.offsetMin) + DAY - 1000, Math.max(untilMs, startMs));
  const steps = Math.round(r(3000, 14000));
  const doc: Doc = {
    start_time: utcClock(startMs),
    end_time: utcClock(endMs),
    active_duration: isoDuration(Math.round(r(1, 4) * 3600)),
    inactive_duration: isoDuration(Math.round(r(14, 20) * 3600)),
    daily_activity: Math.round(r(40, 120) * 10) / 10,
    calories: Math.round(1700 + steps * 0.06),
    active_calories: Math.round(steps * 0.045),
    steps,
    inactivity_alert_count: Math.round(r(0, 3)),
    distance_from_steps: Math.round(steps * 0.75 * 100) / 100,
  };
  return { doc, localDay: day, startMs };
}

/** Continuous heart rate of local day `day`: a sample every 5 minutes from 00:02:08 up to `untilMs`. */
export function heartDay(a: PolarAccount, day: string, untilMs: number, r: Rng): HeartDay {
  const samples: HeartDay['samples'] = [];
  for (let t = localMidnight(day, a.offsetMin) + 2 * MIN + 8000; t < Math.min(untilMs, localMidnight(day, a.offsetMin) + DAY); t += 5 * MIN) {
    samples.push({ heart_rate: Math.round(r(52, 110)), sample_time: localClock(t, a.offsetMin).slice(11, 19) });
  }
  return { date: day, samples };
}

let physicalSeq = 120;
export function physicalInfo(a: PolarAccount, createdMs: number, r: Rng): PhysicalInfo {
  const id = physicalSeq++;
  return {
    id,
    createdMs,
    doc: {
      id,
      'transaction-id': 0,
      created: new Date(createdMs).toISOString(),
      'polar-user': `https://www.polaraccesslink.com/v3/users/${a.userId}`,
      weight: Math.round(r(60, 90) * 10) / 10,
      height: 178,
      'maximum-heart-rate': 188,
      'resting-heart-rate': 52,
      'aerobic-threshold': 140,
      'anaerobic-threshold': 168,
      'vo2-max': 51,
      'weight-source': r(0, 1) < 0.5 ? 'SOURCE_MEASURED' : 'SOURCE_USER',
    },
  };
}

/** `heartRate: false` plays a device without continuous heart rate: every date answers 404 "No data found". */
export function seedAccount(userId: number, offsetMin: number, days: number, now: Date, seed: number, registeredAt: number | null, heartRate = true): PolarAccount {
  const r = rng(seed);
  const a: PolarAccount = {
    userId, offsetMin, registeredAt, consentsMissing: false, exercises: [], nights: [], activities: [], heart: new Map(),
    physicalPending: [], physicalAll: [], lastEvent: new Map(),
  };
  const t = now.getTime();
  const today = localDay(t, offsetMin);
  for (let i = days - 1; i >= 0; i--) {
    const day = localDay(Date.parse(`${today}T12:00:00Z`) - i * DAY, 0);
    const n = night(a, day, r);
    if (Date.parse(String(n.doc.sleep_end_time)) <= t) a.nights.push(n);
    if (localMidnight(day, offsetMin) + 6 * 3_600_000 < t) a.activities.push(activity(a, day, t, r));
    const h = heartDay(a, day, t, r);
    if (h.samples.length && heartRate) a.heart.set(day, h);
    const start = localMidnight(day, offsetMin) + Math.round(r(17 * 60, 19 * 60)) * MIN;
    if (i % 2 === 0 && start + 2 * 3_600_000 < t) a.exercises.push(exercise(a, start, r(30, 90), r));
  }
  for (const at of [t - Math.floor(days / 2) * DAY, t - DAY / 2]) {
    const p = physicalInfo(a, at, r);
    a.physicalPending.push(p);
    a.physicalAll.push(p);
  }
  return a;
}

/** Exercises AccessLink lists: uploaded in the last 30 days and after the user's registration with our client. */
export const visibleExercises = (a: PolarAccount, nowMs: number) =>
  a.exercises.filter((e) => a.registeredAt !== null && e.uploadMs >= a.registeredAt && e.uploadMs >= nowMs - 30 * DAY);
/** Nights of the last 28 days. */
export const recentNights = (a: PolarAccount, nowMs: number) => a.nights.filter((n) => Date.parse(`${n.date}T00:00:00Z`) >= nowMs - 28 * DAY - DAY);

/**
 * The records this account maps to with start_time in [from, to): an exercise at its start, a night
 * at sleep start, an activity at its (UTC) start_time, a continuous heart-rate day at its date's
 * 00:00 read as UTC (the adapter's reading when the service knows no time zone: a profile zone moves
 * the day by its offset), physical info at `created`.
 */
export function countRecords(a: PolarAccount, from: Date, to: Date, nowMs: number): Partial<Record<string, number>> {
  const inRange = (ms: number) => ms >= from.getTime() && ms < to.getTime();
  const counts: Record<string, number> = {
    workout: visibleExercises(a, nowMs).filter((e) => inRange(e.startMs)).length,
    sleep: recentNights(a, nowMs).filter((n) => inRange(n.startMs)).length,
    summary: a.activities.filter((d) => inRange(d.startMs)).length,
    intraday: [...a.heart.values()].filter((h) => h.samples.length > 0 && inRange(Date.parse(`${h.date}T00:00:00Z`))).length,
    measurement: a.physicalAll.filter((p) => inRange(p.createdMs)).length,
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}
