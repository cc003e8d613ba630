/**
 * The Oura simulator's accounts and their data, shaped as Oura's API v2 schemas document them
 * (PublicDailyActivity, PublicModifiedSleepModel, PublicWorkout, PublicHeartRateRow), plus the
 * record counts that data should map to, computed here from the documents themselves.
 */
import { randomUUID } from 'node:crypto';

export type Doc = Record<string, unknown> & { id: string };
export interface HeartRow {
  at: number;
  bpm: number;
  source: 'awake' | 'rest' | 'sleep' | 'workout';
}

export interface OuraAccount {
  providerUserId: string;
  /** The user's UTC offset in minutes; every local time Oura writes carries it. */
  offsetMin: number;
  activity: Doc[];
  sleeps: Doc[];
  workouts: Doc[];
  heartrate: HeartRow[];
  /** The last change per data type, which notify() announces. */
  lastEvent: Map<string, { eventType: 'create' | 'update'; objectId: string; at: number }>;
}

const DAY = 86_400_000;
const MIN = 60_000;

/** A small deterministic generator, so a seeded account is the same on every run. */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return (lo: number, hi: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + (s / 2 ** 32) * (hi - lo);
  };
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
const offsetText = (min: number) => `${min < 0 ? '-' : '+'}${pad(Math.trunc(min / 60))}:${pad(min % 60)}`;

/** `2021-11-01T22:31:04+02:00`: an instant written in the user's local time, as Oura's LocalizedDateTime. */
export const localIso = (ms: number, offsetMin: number) => new Date(ms + offsetMin * MIN).toISOString().slice(0, 19) + offsetText(offsetMin);
export const localDay = (ms: number, offsetMin: number) => new Date(ms + offsetMin * MIN).toISOString().slice(0, 10);
export const localMidnightOf = (day: string, offsetMin: number) => Date.parse(`${day}T00:00:00Z`) - offsetMin * MIN;

export function activityDoc(day: string, offsetMin: number, r: ReturnType<typeof rng>): Doc {
  const steps = Math.round(r(3000, 14000));
  const active = Math.round(steps * 0.045);
  return {
    id: randomUUID(),
    meta: { updated_at: new Date().toISOString(), version: 1 },
    class_5_min: '0011122233334444555',
    score: Math.round(r(60, 95)),
    active_calories: active,
    average_met_minutes: 1.5,
    contributors: { meet_daily_targets: 60, move_every_hour: 95, recovery_time: 100, stay_active: 80, training_frequency: 70, training_volume: 90 },
    equivalent_walking_distance: Math.round(steps * 0.8),
    high_activity_met_minutes: 20,
    high_activity_time: 600,
    inactivity_alerts: 1,
    low_activity_met_minutes: 180,
    low_activity_time: 14000,
    medium_activity_met_minutes: 90,
    medium_activity_time: 3000,
    met: { interval: 60, items: [0.9, 1.1, 1.4], timestamp: `${day}T04:00:00.000${offsetText(offsetMin)}` },
    meters_to_target: 1200,
    non_wear_time: 1800,
    resting_time: 30000,
    sedentary_met_minutes: 12,
    sedentary_time: 30000,
    steps,
    target_calories: 450,
    target_meters: 9000,
    total_calories: 1650 + active,
    day,
    timestamp: `${day}T04:00:00${offsetText(offsetMin)}`,
  };
}

export function sleepDoc(startMs: number, endMs: number, offsetMin: number, r: ReturnType<typeof rng>): Doc {
  const slots = Math.floor((endMs - startMs) / (5 * MIN));
  const phases = Array.from({ length: slots }, (_, i) => (i < 3 ? '4' : String(1 + (Math.floor(i / 6) % 3)))).join('');
  const count = (c: string) => [...phases].filter((p) => p === c).length * 300;
  return {
    id: randomUUID(),
    meta: { updated_at: new Date().toISOString(), version: 1 },
    average_breath: 14.5,
    average_heart_rate: Math.round(r(48, 60)),
    average_hrv: Math.round(r(35, 80)),
    awake_time: count('4'),
    bedtime_end: localIso(endMs, offsetMin),
    bedtime_start: localIso(startMs, offsetMin),
    day: localDay(endMs, offsetMin),
    deep_sleep_duration: count('1'),
    efficiency: 88,
    heart_rate: { interval: 300, items: Array.from({ length: slots }, () => Math.round(r(45, 60))), timestamp: localIso(startMs, offsetMin) },
    hrv: null,
    latency: 600,
    light_sleep_duration: count('2'),
    low_battery_alert: false,
    lowest_heart_rate: 45,
    movement_30_sec: null,
    period: 0,
    readiness: null,
    readiness_score_delta: null,
    rem_sleep_duration: count('3'),
    restless_periods: Math.round(r(100, 300)),
    sleep_phase_5_min: phases,
    sleep_score_delta: null,
    sleep_algorithm_version: 'v2',
    time_in_bed: Math.round((endMs - startMs) / 1000),
    total_sleep_duration: count('1') + count('2') + count('3'),
    type: 'long_sleep',
  };
}

const ACTIVITIES = ['walking', 'running', 'cycling', 'strengthTraining'];

export function workoutDoc(startMs: number, minutes: number, offsetMin: number, r: ReturnType<typeof rng>, n: number): Doc {
  const activity = ACTIVITIES[n % ACTIVITIES.length];
  return {
    id: randomUUID(),
    meta: { updated_at: new Date().toISOString(), version: 1 },
    activity,
    calories: Math.round(r(150, 500)),
    day: localDay(startMs, offsetMin),
    distance: activity === 'strengthTraining' ? null : Math.round(r(2000, 15000)),
    end_datetime: localIso(startMs + minutes * MIN, offsetMin),
    intensity: 'moderate',
    label: null,
    source: n % 2 ? 'manual' : 'autodetected',
    start_datetime: localIso(startMs, offsetMin),
  };
}

/** `days` days ending at `now`: an activity day per local day, a sleep per night, a workout every third day, heart rate every 5 minutes. */
export function seedAccount(providerUserId: string, offsetMin: number, days: number, now: Date, seed: number): OuraAccount {
  const r = rng(seed);
  const end = now.getTime();
  const begin = end - days * DAY;
  const account: OuraAccount = { providerUserId, offsetMin, activity: [], sleeps: [], workouts: [], heartrate: [], lastEvent: new Map() };
  for (let d = localMidnightOf(localDay(begin, offsetMin), offsetMin); d <= end; d += DAY) {
    if (d < begin) continue;
    const day = localDay(d, offsetMin);
    account.activity.push(activityDoc(day, offsetMin, r));
    const bed = d - 75 * MIN + Math.round(r(0, 40)) * MIN;
    const wake = d + 6.5 * 60 * MIN + Math.round(r(0, 50)) * MIN;
    if (bed >= begin && wake <= end) account.sleeps.push(sleepDoc(bed, wake, offsetMin, r));
    const n = account.activity.length;
    const start = d + 18 * 60 * MIN;
    if (n % 3 === 0 && start + 45 * MIN <= end) account.workouts.push(workoutDoc(start, 45, offsetMin, r, n));
  }
  for (let t = Math.ceil(begin / (5 * MIN)) * 5 * MIN; t <= end; t += 5 * MIN) account.heartrate.push({ at: t, bpm: Math.round(r(52, 95)), source: 'awake' });
  return account;
}

const inRange = (t: number, from: Date, to: Date) => t >= from.getTime() && t < to.getTime();

/**
 * Records the account should map to with start_time in [from, to): a summary per activity day
 * (starting at that local midnight), a sleep per sleep (bedtime_start), a workout per workout
 * (start_datetime), an intraday per UTC day holding heart-rate rows (starting at 00:00Z).
 */
export function countRecords(a: OuraAccount, from: Date, to: Date): Record<string, number> {
  const utcDays = new Set(a.heartrate.map((h) => Math.floor(h.at / DAY) * DAY));
  return {
    summary: a.activity.filter((d) => inRange(localMidnightOf(String(d.day), a.offsetMin), from, to)).length,
    sleep: a.sleeps.filter((d) => inRange(Date.parse(String(d.bedtime_start)), from, to)).length,
    workout: a.workouts.filter((d) => inRange(Date.parse(String(d.start_datetime)), from, to)).length,
    intraday: [...utcDays].filter((d) => inRange(d, from, to)).length,
  };
}
