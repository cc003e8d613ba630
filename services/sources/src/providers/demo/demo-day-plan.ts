/**
 * The demo user's life, decided by seeded randomness: a persona per user (weight, resting heart
 * rate, activity level) and a plan per day (wake and bed time, meals, an occasional workout).
 * Everything is a pure function of (user id, date), so a day looks the same however often and
 * however far into it it is generated.
 */
import { createHash } from 'node:crypto';

/** mulberry32: small, fast, good enough for synthetic data; NOT for anything secret. */
export function seededRandom(seedText: string): () => number {
  let a = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const between = (r: () => number, lo: number, hi: number) => lo + r() * (hi - lo);
export const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length) % items.length];

export interface Persona {
  weightKg: number;
  restingHr: number;
  /** Scales everyday steps (0.7 couch … 1.4 very active). */
  activity: number;
  strideM: number;
  basalKcalPerDay: number;
}

export function personaOf(userId: string): Persona {
  const r = seededRandom(`persona|${userId}`);
  const weightKg = between(r, 56, 96);
  return {
    weightKg,
    restingHr: Math.round(between(r, 50, 68)),
    activity: between(r, 0.75, 1.35),
    strideM: between(r, 0.68, 0.82),
    basalKcalPerDay: Math.round(weightKg * 22 + between(r, -80, 80)),
  };
}

export type WorkoutCategory = 'running' | 'cycling' | 'walking' | 'swimming' | 'strength';

export interface WorkoutPlan {
  category: WorkoutCategory;
  /** Seconds after local midnight. */
  start: number;
  duration: number;
  avgHr: number;
  maxHr: number;
}

export interface DayPlan {
  /** Seconds after local midnight (wake-up, bed time tonight). */
  wake: number;
  bed: number;
  restingHr: number;
  weightKg: number;
  meals: { kind: 'breakfast' | 'lunch' | 'dinner'; at: number; scale: number; choice: number }[];
  workout: WorkoutPlan | null;
  floorsPerKStep: number;
}

const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

export function dayPlanOf(userId: string, date: string): DayPlan {
  const p = personaOf(userId);
  const r = seededRandom(`day|${userId}|${date}`);
  const wake = Math.round(between(r, 6.25, 7.75) * 3600);
  const bed = Math.round(between(r, 22.5, 23.75) * 3600);
  const drift = 0.6 * Math.sin(dayNumber(date) / 9);
  const weightKg = Math.round((p.weightKg + drift + between(r, -0.4, 0.4)) * 10) / 10;
  const restingHr = Math.round(p.restingHr + between(r, -3, 3));
  const meals: DayPlan['meals'] = [
    { kind: 'breakfast', at: wake + Math.round(between(r, 25, 60) * 60), scale: between(r, 0.8, 1.25), choice: r() },
    { kind: 'lunch', at: Math.round(between(r, 12, 13.5) * 3600), scale: between(r, 0.8, 1.25), choice: r() },
    { kind: 'dinner', at: Math.round(between(r, 18.75, 20) * 3600), scale: between(r, 0.8, 1.25), choice: r() },
  ];
  let workout: WorkoutPlan | null = null;
  if (r() < 0.45) {
    const category = pick(r, ['running', 'cycling', 'walking', 'swimming', 'strength'] as const);
    const morning = r() < 0.3;
    const start = morning ? wake + 45 * 60 : Math.round(between(r, 17, 18.25) * 3600);
    const duration = Math.round(between(r, 25, 70)) * 60;
    const intense = category === 'running' || category === 'cycling' || category === 'swimming';
    const avgHr = Math.round(intense ? between(r, 135, 158) : between(r, 105, 125));
    workout = { category, start, duration, avgHr, maxHr: avgHr + Math.round(between(r, 12, 25)) };
  }
  return { wake, bed, restingHr, weightKg, meals, workout, floorsPerKStep: between(r, 0.5, 1.3) };
}
