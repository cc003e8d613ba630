/**
 * A simulated Suunto user's data in Suunto's documented shapes: workouts as the Workout API and the
 * WORKOUT_CREATED example write them (epoch-ms `startTime`, seconds, metres, kcal, `hrdata` in bpm,
 * `timeOffsetInMinutes`), the daily activity statistics (steps, energy in joules, one sample a UTC
 * day), and the 24/7 sleep and activity samples (`{timestamp, entryData}`: a night's totals in
 * seconds; a sample every ten minutes with HR in hertz and StepCount).
 */
import { randomBytes } from 'node:crypto';

const DAY = 86_400_000;
export type Obj = Record<string, unknown>;

export interface SuuntoAccount {
  username: string;
  /** The user's offset from UTC, minutes. */
  offsetMin: number;
  workouts: Obj[];
  /** Steps and joules per UTC day start. */
  days: Map<number, { steps: number; joules: number }>;
  sleeps: Obj[];
  activity: Obj[];
  /** The last addData of each resource, for notify(). */
  last: Map<string, Obj>;
}

export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return (lo: number, hi: number) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return lo + (s / 2 ** 32) * (hi - lo);
  };
}

/** An ISO time with the user's offset, as Suunto's 24/7 answers write them. */
export function localIso(ms: number, offsetMin: number): string {
  const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 23);
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

export const workoutKey = () => randomBytes(12).toString('hex');

export function workoutObj(a: SuuntoAccount, startMs: number, minutes: number, r: ReturnType<typeof rng>): Obj {
  const totalTime = minutes * 60;
  const distance = Math.round(r(2.2, 3.4) * totalTime);
  return {
    workoutKey: workoutKey(),
    activityId: [1, 2, 0, 11][Math.floor(r(0, 4))],
    startTime: Math.floor(startMs),
    stopTime: Math.floor(startMs) + totalTime * 1000,
    totalTime,
    totalDistance: distance,
    totalAscent: Math.round(r(10, 200) * 10) / 10,
    totalDescent: Math.round(r(10, 200) * 10) / 10,
    energyConsumption: Math.round(r(6, 12) * minutes),
    stepCount: Math.round(distance * 1.3),
    avgSpeed: Math.round((distance / totalTime) * 100) / 100,
    maxSpeed: Math.round((distance / totalTime) * 150) / 100,
    hrdata: { workoutAvgHR: Math.round(r(120, 155)), workoutMaxHR: Math.round(r(160, 185)), userMaxHR: 190 },
    timeOffsetInMinutes: a.offsetMin,
    startPosition: { x: 24.97242731, y: 60.27185791 },
  };
}

export function sleepObj(a: SuuntoAccount, startMs: number, endMs: number, nap: boolean, r: ReturnType<typeof rng>): Obj {
  const duration = Math.round((endMs - startMs) / 1000);
  const deep = Math.round(duration * r(0.15, 0.22));
  const rem = Math.round(duration * r(0.18, 0.24));
  const waso = Math.round(duration * 0.04);
  return {
    timestamp: localIso(startMs, a.offsetMin),
    entryData: {
      SleepId: Math.floor(startMs / 1000),
      BedtimeStart: localIso(startMs, a.offsetMin),
      BedtimeEnd: localIso(endMs, a.offsetMin),
      Duration: duration,
      DeepSleepDuration: deep,
      REMSleepDuration: rem,
      LightSleepDuration: duration - deep - rem - waso - 600,
      SleepOnsetLatencyDuration: 600,
      WakeAfterSleepOnsetDuration: waso,
      WakeBeforeOffBedDuration: 0,
      HRAvg: Math.round(r(0.85, 1.0) * 1000) / 1000,
      HRMin: Math.round(r(0.7, 0.84) * 1000) / 1000,
      AvgHRV: Math.round(r(35, 80)),
      AvgHRVSampleCount: 120,
      SleepQualityScore: Math.round(r(0.55, 0.92) * 100) / 100,
      MaxSpo2: 0.98,
      IsNap: nap,
    },
  };
}

export function activitySample(a: SuuntoAccount, at: number, r: ReturnType<typeof rng>): Obj {
  return { timestamp: localIso(at, a.offsetMin), entryData: { HR: Math.round(r(0.95, 1.6) * 1000) / 1000, StepCount: Math.round(r(0, 400)), EnergyConsumption: Math.round(r(100_000, 200_000)) } };
}

export function seedAccount(username: string, offsetMin: number, days: number, now: Date, seed: number): SuuntoAccount {
  const r = rng(seed);
  const a: SuuntoAccount = { username, offsetMin, workouts: [], days: new Map(), sleeps: [], activity: [], last: new Map() };
  const first = Math.floor((now.getTime() - days * DAY) / DAY) * DAY;
  for (let day = first; day < now.getTime(); day += DAY) {
    a.days.set(day, { steps: Math.round(r(4000, 14000)), joules: Math.round(r(8e6, 1.2e7)) });
    if (r(0, 1) < 0.7) {
      const start = day + r(6, 18) * 3600_000;
      if (start + 3600_000 < now.getTime()) a.workouts.push(workoutObj(a, start, Math.round(r(25, 75)), r));
    }
    const bed = day - offsetMin * 60_000 - r(0.5, 2) * 3600_000;
    const wake = bed + r(6.5, 8.5) * 3600_000;
    if (wake < now.getTime()) a.sleeps.push(sleepObj(a, bed, wake, false, r));
    for (let t = day; t < Math.min(day + DAY, now.getTime()); t += 600_000) a.activity.push(activitySample(a, t, r));
  }
  return a;
}

const startOf = (o: Obj) => Date.parse(String((o.entryData as Obj).BedtimeStart ?? o.timestamp));

/** Records the user's data maps to with start_time in [from, to): a workout each, a summary and an intraday per day, a sleep each. */
export function countRecords(a: SuuntoAccount, from: Date, to: Date): Partial<Record<string, number>> {
  const inside = (t: number) => t >= from.getTime() && t < to.getTime();
  const activityDays = new Set(a.activity.map((s) => Math.floor(Date.parse(String(s.timestamp)) / DAY) * DAY));
  return {
    workout: a.workouts.filter((w) => inside(Number(w.startTime))).length,
    summary: [...a.days.keys()].filter(inside).length,
    sleep: a.sleeps.filter((s) => inside(startOf(s))).length,
    intraday: [...activityDays].filter(inside).length,
  };
}

/** The daily activity statistics over [from, to], in the documented shape (UTC, no zone written). */
export function dailyStatistics(a: SuuntoAccount, from: number, to: number): Obj[] {
  const days = [...a.days.entries()].filter(([d]) => d + DAY > from && d <= to).sort(([x], [y]) => x - y);
  const samples = (pick: (v: { steps: number; joules: number }) => number) => days.map(([d, v]) => ({ TimeISO8601: new Date(d).toISOString().slice(0, 23), Value: pick(v) }));
  const source = `suunto-247-${a.username}`;
  return [
    { Name: 'energyconsumption', Aggregation: 'sum', Sources: [{ Name: source, Samples: samples((v) => v.joules) }] },
    { Name: 'stepcount', Aggregation: 'sum', Sources: [{ Name: source, Samples: samples((v) => v.steps) }] },
  ];
}

export const samplesIn = (list: Obj[], from: number, to: number) => list.filter((s) => {
  const t = startOf(s);
  return t >= from && t <= to;
});
