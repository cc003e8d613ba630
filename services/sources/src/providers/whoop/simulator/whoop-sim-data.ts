/**
 * The WHOOP simulator's accounts and their data, shaped as WHOOP's v2 OpenAPI schemas document
 * them (Cycle, Sleep, Recovery, WorkoutV2, UserBodyMeasurement, UserBasicProfile), plus the record
 * counts that data should map to, computed here from the objects themselves.
 *
 * A physiological cycle starts when the user falls asleep and ends when they next fall asleep
 * (the current one has no `end`); each night's sleep starts its cycle and has a recovery; some
 * days have a nap (no recovery) and a workout.
 */
import { randomUUID } from 'node:crypto';

export type Obj = Record<string, unknown>;

export interface WhoopAccount {
  userId: number;
  offsetMin: number;
  cycles: Obj[];
  sleeps: Obj[];
  recoveries: Obj[];
  workouts: Obj[];
  body: Obj | null;
  profile: Obj;
  /** The last object per resource addData touched, which notify() announces. */
  last: Map<string, string>;
}

const MIN = 60_000;
export const DAY = 86_400_000;

export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return (lo: number, hi: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + (s / 2 ** 32) * (hi - lo);
  };
}
export type Rng = ReturnType<typeof rng>;

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
/** WHOOP's Time Zone Designator: `-05:00`, `+02:00`. */
export const tzd = (min: number) => `${min < 0 ? '-' : '+'}${pad(Math.trunc(min / 60))}:${pad(min % 60)}`;
/** WHOOP writes instants in UTC with milliseconds: `2022-04-24T02:25:44.774Z`. */
export const iso = (ms: number) => new Date(ms).toISOString();

let cycleIds = 93_000;

export function cycleObj(a: WhoopAccount, startMs: number, endMs: number | undefined, r: Rng): Obj {
  const id = ++cycleIds;
  return {
    id,
    user_id: a.userId,
    created_at: iso(startMs),
    updated_at: iso(endMs ?? startMs),
    start: iso(startMs),
    ...(endMs === undefined ? {} : { end: iso(endMs) }),
    timezone_offset: tzd(a.offsetMin),
    score_state: 'SCORED',
    score: { strain: Math.round(r(4, 18) * 1e4) / 1e4, kilojoule: Math.round(r(7000, 12000) * 1000) / 1000, average_heart_rate: Math.round(r(58, 75)), max_heart_rate: Math.round(r(130, 185)) },
  };
}

export function sleepObj(a: WhoopAccount, cycleId: number, startMs: number, endMs: number, nap: boolean, r: Rng): Obj {
  const inBed = endMs - startMs;
  const awake = Math.round(inBed * r(0.04, 0.1));
  const rem = Math.round((inBed - awake) * r(0.18, 0.25));
  const sws = Math.round((inBed - awake) * r(0.15, 0.22));
  const light = inBed - awake - rem - sws;
  return {
    id: randomUUID(),
    cycle_id: cycleId,
    user_id: a.userId,
    created_at: iso(endMs),
    updated_at: iso(endMs),
    start: iso(startMs),
    end: iso(endMs),
    timezone_offset: tzd(a.offsetMin),
    nap,
    score_state: 'SCORED',
    score: {
      stage_summary: {
        total_in_bed_time_milli: inBed,
        total_awake_time_milli: awake,
        total_no_data_time_milli: 0,
        total_light_sleep_time_milli: light,
        total_slow_wave_sleep_time_milli: sws,
        total_rem_sleep_time_milli: rem,
        sleep_cycle_count: Math.max(1, Math.round(inBed / (90 * MIN))),
        disturbance_count: Math.round(r(2, 15)),
      },
      sleep_needed: { baseline_milli: 27_395_716, need_from_sleep_debt_milli: 352_230, need_from_recent_strain_milli: 208_595, need_from_recent_nap_milli: nap ? 0 : -12_312 },
      respiratory_rate: Math.round(r(13, 17) * 1e4) / 1e4,
      sleep_performance_percentage: Math.round(r(60, 100)),
      sleep_consistency_percentage: Math.round(r(60, 95)),
      sleep_efficiency_percentage: Math.round(((inBed - awake) / inBed) * 1e6) / 1e4,
    },
  };
}

export function recoveryObj(a: WhoopAccount, cycleId: number, sleep: Obj, r: Rng): Obj {
  return {
    cycle_id: cycleId,
    sleep_id: sleep.id,
    user_id: a.userId,
    created_at: sleep.end,
    updated_at: sleep.end,
    score_state: 'SCORED',
    score: {
      user_calibrating: false,
      recovery_score: Math.round(r(20, 99)),
      resting_heart_rate: Math.round(r(48, 62)),
      hrv_rmssd_milli: Math.round(r(25, 90) * 1e4) / 1e4,
      spo2_percentage: Math.round(r(94, 99) * 1e4) / 1e4,
      skin_temp_celsius: Math.round(r(32.5, 34.5) * 10) / 10,
    },
  };
}

const SPORTS = ['running', 'cycling', 'weightlifting', 'functional-fitness', 'walking', 'yoga'];

export function workoutObj(a: WhoopAccount, startMs: number, minutes: number, r: Rng, n: number): Obj {
  const sport = SPORTS[n % SPORTS.length];
  const endMs = startMs + minutes * MIN;
  const moving = sport === 'running' || sport === 'cycling' || sport === 'walking';
  // Every fifth workout is still being scored: WHOOP then sends no score.
  const pending = n % 5 === 4;
  const zone = (share: number) => Math.round(minutes * MIN * share);
  return {
    id: randomUUID(),
    user_id: a.userId,
    created_at: iso(endMs),
    updated_at: iso(endMs),
    start: iso(startMs),
    end: iso(endMs),
    timezone_offset: tzd(a.offsetMin),
    sport_name: sport,
    score_state: pending ? 'PENDING_SCORE' : 'SCORED',
    ...(pending
      ? {}
      : {
          score: {
            strain: Math.round(r(5, 16) * 1e4) / 1e4,
            average_heart_rate: Math.round(r(110, 150)),
            max_heart_rate: Math.round(r(155, 185)),
            kilojoule: Math.round(r(800, 2500) * 1e4) / 1e4,
            percent_recorded: 100,
            ...(moving ? { distance_meter: Math.round(r(2000, 20000) * 100) / 100, altitude_gain_meter: Math.round(r(5, 200) * 100) / 100, altitude_change_meter: Math.round(r(-5, 5) * 100) / 100 } : {}),
            zone_durations: { zone_zero_milli: zone(0.05), zone_one_milli: zone(0.15), zone_two_milli: zone(0.3), zone_three_milli: zone(0.3), zone_four_milli: zone(0.15), zone_five_milli: zone(0.05) },
          },
        }),
  };
}

/** `days` days ending at `now`: a cycle per night's sleep (the last one open), its recovery, a nap every fourth day, a workout every other day. */
export function seedAccount(userId: number, offsetMin: number, days: number, now: Date, seed: number): WhoopAccount {
  const r = rng(seed);
  const end = now.getTime();
  const a: WhoopAccount = {
    userId,
    offsetMin,
    cycles: [],
    sleeps: [],
    recoveries: [],
    workouts: [],
    body: { height_meter: 1.8288, weight_kilogram: Math.round(r(60, 95) * 1e4) / 1e4, max_heart_rate: 195 },
    profile: { user_id: userId, email: `member${userId}@example.com`, first_name: 'Sim', last_name: `Member ${userId}` },
    last: new Map(),
  };
  // Local 23:00 bedtimes (± 40 min), as instants.
  const localMidnight = (ms: number) => Math.floor((ms + offsetMin * MIN) / DAY) * DAY - offsetMin * MIN;
  const beds: number[] = [];
  for (let d = localMidnight(end - days * DAY); d <= end; d += DAY) {
    const bed = d - 60 * MIN + Math.round(r(-40, 40)) * MIN;
    if (bed >= end - days * DAY && bed + 8 * 60 * MIN <= end) beds.push(bed);
  }
  beds.forEach((bed, i) => {
    const next = beds[i + 1];
    const cycle = cycleObj(a, bed, next, r);
    a.cycles.push(cycle);
    const wake = bed + Math.round(r(6.5, 8.5) * 60) * MIN;
    const sleep = sleepObj(a, cycle.id as number, bed, wake, false, r);
    a.sleeps.push(sleep);
    a.recoveries.push(recoveryObj(a, cycle.id as number, sleep, r));
    const napStart = wake + 7 * 60 * MIN;
    if (i % 4 === 1 && napStart + 30 * MIN <= Math.min(end, next ?? end)) a.sleeps.push(sleepObj(a, cycle.id as number, napStart, napStart + 30 * MIN, true, r));
    const workoutStart = wake + 10 * 60 * MIN;
    if (i % 2 === 0 && workoutStart + 50 * MIN <= Math.min(end, next ?? end)) a.workouts.push(workoutObj(a, workoutStart, 50, r, a.workouts.length));
  });
  return a;
}

/**
 * A member edits an old sleep now (WHOOP's webhook page tests webhooks by "edit a previous sleep"):
 * the night's sleep that started nearest `at` wakes 20 minutes later, and its recovery is scored
 * again. Both webhooks then name the sleep's UUID (v2). Returns the log_ids whose records change.
 */
export function editSleep(a: WhoopAccount, at: Date): string[] {
  const nights = a.sleeps.filter((s) => s.nap === false);
  const sleep = nights.sort((x, y) => Math.abs(Date.parse(String(x.start)) - at.getTime()) - Math.abs(Date.parse(String(y.start)) - at.getTime()))[0];
  if (!sleep) throw new Error('WHOOP simulator: no sleep to edit');
  const r = rng(at.getTime() % 100_000);
  const cycleId = sleep.cycle_id as number;
  const now = new Date().toISOString();
  const edited = { ...sleepObj(a, cycleId, Date.parse(String(sleep.start)), Date.parse(String(sleep.end)) + 20 * 60_000, false, r), id: sleep.id, created_at: sleep.created_at, updated_at: now };
  a.sleeps[a.sleeps.indexOf(sleep)] = edited;
  const i = a.recoveries.findIndex((x) => x.sleep_id === sleep.id);
  if (i >= 0) {
    // Scored again: a resting heart rate one beat lower, so the recovery's record surely changes.
    const old = a.recoveries[i];
    const score = old.score as Record<string, number>;
    a.recoveries[i] = { ...old, updated_at: now, score: { ...score, resting_heart_rate: score.resting_heart_rate - 1, recovery_score: Math.min(99, score.recovery_score + 3) } };
  }
  const id = String(sleep.id);
  a.last.set('sleep', id);
  a.last.set('recovery', id);
  return i >= 0 ? [id, `recovery:${id}`] : [id];
}

const inRange = (t: number, from: Date, to: Date) => t >= from.getTime() && t < to.getTime();
const startOf = (o: Obj) => Date.parse(String(o.start));

/**
 * Records the account should map to with start_time in [from, to): a summary per cycle and one
 * per recovery (over its cycle), a sleep per sleep (naps included), a workout per workout, and
 * one measurement when now falls in the range (body measurements are the user's current values).
 */
export function countRecords(a: WhoopAccount, from: Date, to: Date, now: number): Record<string, number> {
  const cycleStart = new Map(a.cycles.map((c) => [c.id, startOf(c)]));
  const recoveries = a.recoveries.filter((rec) => {
    const t = cycleStart.get(rec.cycle_id);
    return t !== undefined && inRange(t, from, to);
  });
  return {
    summary: a.cycles.filter((c) => inRange(startOf(c), from, to)).length + recoveries.length,
    sleep: a.sleeps.filter((s) => inRange(startOf(s), from, to)).length,
    workout: a.workouts.filter((w) => inRange(startOf(w), from, to)).length,
    measurement: a.body && inRange(now, from, to) ? 1 : 0,
  };
}
