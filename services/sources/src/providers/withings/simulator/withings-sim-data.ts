/**
 * The Withings simulator's data: a deterministic, realistic account (a weight measure most
 * mornings, blood pressure every few evenings, a daily activity, a sleep summary per night, a run
 * every few days, per-10-minute intraday steps and heart rate for the last days), held in the
 * shapes the API reference documents (measuregrp_object, activity_object, workout_object,
 * sleep_summary_object, getintradayactivity `series`). Written from the documents, not the adapter.
 */

export const SIM_TIMEZONE = 'Europe/Paris';
const DAY = 86_400;

export interface SimMeasureGroup {
  grpid: number;
  attrib: number;
  date: number;
  created: number;
  modified: number;
  category: 1 | 2;
  hash_deviceid: string;
  model: string;
  measures: { value: number; type: number; unit: number; algo: number; fm: number }[];
}
export interface SimActivity { date: string; timezone: string; hash_deviceid: string; brand: number; is_tracker: boolean; model: string; modified: number; steps: number; distance: number; elevation: number; soft: number; moderate: number; intense: number; active: number; calories: number; totalcalories: number; hr_average: number; hr_min: number; hr_max: number }
export interface SimWorkout { id: number; category: number; timezone: string; model: number; attrib: number; startdate: number; enddate: number; date: string; modified: number; deviceid: string; data: Record<string, number> }
export interface SimSleep { id: number; timezone: string; model: number; model_id: number; startdate: number; enddate: number; date: string; created: number; modified: number; hash_deviceid: string; completed: boolean; data: Record<string, number> }
export interface SimIntradayPoint { deviceid: string; model: string; model_id: number; steps?: number; heart_rate?: number; distance?: number; calories?: number; duration?: number }

export interface SimAccount {
  userid: string;
  timezone: string;
  measures: SimMeasureGroup[];
  activities: SimActivity[];
  workouts: SimWorkout[];
  sleeps: SimSleep[];
  intraday: Map<number, SimIntradayPoint>;
}

/** A small deterministic generator (LCG) so every run seeds the same account. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const ymd = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);
let nextId = 4_716_596_000;
const newId = () => ++nextId;

const SCALE = '892359876fd8805ac45bab078c4828692f0276b1';
const BPM = 'c405eb8e0e053f6601e151c7e43c04e29aad6956';
const WATCH = 'a7f2b1c3d4e5f60718293a4b5c6d7e8f90a1b2c3';

export function weightGroup(at: number, r: () => number): SimMeasureGroup {
  const kg = Math.round((72 + r() * 3) * 1000);
  return {
    grpid: newId(), attrib: 0, date: at, created: at + 60, modified: at + 60, category: 1, hash_deviceid: SCALE, model: 'Body+',
    measures: [
      { value: kg, type: 1, unit: -3, algo: 3, fm: 131 }, // Weight (kg)
      { value: Math.round((18 + r() * 4) * 100), type: 6, unit: -2, algo: 3, fm: 131 }, // Fat Ratio (%)
      { value: Math.round((55 + r() * 2) * 100), type: 76, unit: -2, algo: 3, fm: 131 }, // Muscle Mass (kg)
    ],
  };
}

export function bloodPressureGroup(at: number, r: () => number): SimMeasureGroup {
  return {
    grpid: newId(), attrib: 0, date: at, created: at + 30, modified: at + 30, category: 1, hash_deviceid: BPM, model: 'BPM Connect',
    measures: [
      { value: Math.round(80 + r() * 10), type: 9, unit: 0, algo: 0, fm: 3 }, // Diastolic (mmHg)
      { value: Math.round(115 + r() * 15), type: 10, unit: 0, algo: 0, fm: 3 }, // Systolic (mmHg)
      { value: Math.round(60 + r() * 20), type: 11, unit: 0, algo: 0, fm: 3 }, // Heart Pulse (bpm)
    ],
  };
}

export function activityFor(date: string, modified: number, r: () => number): SimActivity {
  const steps = Math.round(4000 + r() * 8000);
  return {
    date, timezone: SIM_TIMEZONE, hash_deviceid: WATCH, brand: 1, is_tracker: true, model: 'ScanWatch', modified,
    steps, distance: Math.round(steps * 0.75), elevation: Math.round(r() * 12), soft: 1800, moderate: 1200, intense: 600, active: 1800,
    calories: Math.round(250 + r() * 300), totalcalories: Math.round(2100 + r() * 500), hr_average: 72, hr_min: 52, hr_max: 150,
  };
}

export function workoutAt(start: number, r: () => number): SimWorkout {
  const end = start + 1800 + Math.round(r() * 1800);
  return {
    id: newId(), category: 2, timezone: SIM_TIMEZONE, model: 59, attrib: 0, startdate: start, enddate: end, date: ymd(start), modified: end + 120, deviceid: WATCH,
    data: { calories: Math.round(300 + r() * 200), distance: Math.round(5000 + r() * 4000), steps: Math.round(6000 + r() * 3000), hr_average: 148, hr_max: 171, hr_min: 95, elevation: 2, intensity: 0, pause_duration: 0 },
  };
}

/** A night from `start` (UTC) for ~8 h; its `date` is the day it ends, as the API's example shows. */
export function sleepFrom(start: number, r: () => number): SimSleep {
  const light = Math.round(13000 + r() * 3000);
  const deep = Math.round(5000 + r() * 2000);
  const rem = Math.round(5000 + r() * 1500);
  const awake = Math.round(600 + r() * 900);
  const end = start + light + deep + rem + awake + 900;
  return {
    id: newId(), timezone: SIM_TIMEZONE, model: 32, model_id: 63, startdate: start, enddate: end, date: ymd(end), created: end + 600, modified: end + 600, hash_deviceid: SCALE, completed: true,
    data: { total_timeinbed: end - start, total_sleep_time: light + deep + rem, lightsleepduration: light, deepsleepduration: deep, remsleepduration: rem, sleep_latency: 900, wakeupduration: awake, wakeupcount: 2, waso: awake, sleep_score: Math.round(60 + r() * 35), hr_average: 58, rr_average: 14, out_of_bed_count: 1 },
  };
}

/** Steps and heart rate every 10 minutes from 07:00 to 21:00 UTC of the day starting at `dayStart`. */
export function intradayDay(account: SimAccount, dayStart: number, until: number, r: () => number): void {
  for (let t = dayStart + 7 * 3600; t < dayStart + 21 * 3600 && t < until; t += 600) {
    const steps = Math.round(r() * 900);
    account.intraday.set(t, { deviceid: WATCH, model: 'ScanWatch', model_id: 93, steps, distance: Math.round(steps * 0.75), calories: Math.round(steps * 0.04 * 10) / 10, duration: 600, heart_rate: Math.round(65 + r() * 40) });
  }
}

export function seedAccount(userid: string, seed: number, days: number, now: Date): SimAccount {
  const r = rng(seed);
  const account: SimAccount = { userid, timezone: SIM_TIMEZONE, measures: [], activities: [], workouts: [], sleeps: [], intraday: new Map() };
  const until = Math.floor(now.getTime() / 1000);
  const first = Math.floor(until / DAY) * DAY - (days - 1) * DAY;
  for (let i = 0; i < days; i++) {
    const day = first + i * DAY;
    const keep = (t: number) => t < until;
    if (i % 7 !== 3 && keep(day + 6 * 3600 + 900)) account.measures.push(weightGroup(day + 6 * 3600 + 900, r));
    if (i % 3 === 0 && keep(day + 19 * 3600)) account.measures.push(bloodPressureGroup(day + 19 * 3600, r));
    if (keep(day + 12 * 3600)) account.activities.push(activityFor(ymd(day + 12 * 3600), day + 23 * 3600, r));
    if (keep(day - 3600 + 9 * 3600)) account.sleeps.push(sleepFrom(day - 3600, r));
    if (i % 5 === 2 && keep(day + 17 * 3600 + 2 * 3600)) account.workouts.push(workoutAt(day + 17 * 3600, r));
    if (i >= days - 3) intradayDay(account, day, until, r);
  }
  // A user objective (category 2): a goal, not a measure, so no Wellstream record.
  account.measures.push({ ...weightGroup(first + 3600, r), category: 2, attrib: 2 });
  return account;
}
