/**
 * Thirty days of an active Apple Watch user, as HealthKit holds them: heart rate every 5 minutes
 * (every 5 s during 8 workouts), steps and active energy every minute / 5 minutes while awake,
 * nightly sleep stages, a daily weight, three meals a day. About 50,000 samples.
 */
import type { CategorySample, QuantitySample, WorkoutSample } from '@kingstinct/react-native-healthkit';
import { ACTIVITY, hkQuantity, hkSleep, hkWorkout } from './healthkit-samples';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const iso = (t: number) => new Date(t).toISOString();

export interface UserOptions {
  days?: number;
  end?: Date;
  zone?: string;
  seed?: string;
  /** Minutes between heart-rate samples outside workouts (5), between step samples (1). */
  hrMinutes?: number;
  stepMinutes?: number;
  /** Seconds between heart-rate samples during a workout (5). */
  workoutHrSeconds?: number;
}

export function appleWatchUser(options: UserOptions = {}): (QuantitySample | CategorySample | WorkoutSample)[] {
  const days = options.days ?? 30;
  const zone = options.zone ?? 'Europe/Berlin';
  const seed = options.seed ?? 'u';
  // Local midnights are approximated by UTC midnights minus one hour (Berlin in winter): good enough for a load.
  const end = Math.floor((options.end ?? new Date()).getTime() / DAY) * DAY - 60 * MIN;
  const out: (QuantitySample | CategorySample | WorkoutSample)[] = [];
  let n = 0;
  const id = (kind: string) => `${seed}-${kind}-${(n++).toString(36)}`;
  for (let d = days; d >= 1; d--) {
    const day = end - d * DAY;
    const workoutDay = d % 4 === 0;
    const workoutStart = day + 17 * 60 * MIN;
    for (let t = day; t < day + DAY; t += (options.hrMinutes ?? 5) * MIN) {
      if (workoutDay && t >= workoutStart && t < workoutStart + 45 * MIN) continue;
      out.push(hkQuantity('HKQuantityTypeIdentifierHeartRate', 55 + ((t / MIN) % 30), 'count/min', { uuid: id('hr'), start: iso(t), zone }));
    }
    const stepMinutes = options.stepMinutes ?? 1;
    for (let t = day + 7 * 60 * MIN; t < day + 23 * 60 * MIN; t += stepMinutes * MIN) {
      out.push(hkQuantity('HKQuantityTypeIdentifierStepCount', 20 + ((t / MIN) % 40), 'count', { uuid: id('st'), start: iso(t), end: iso(t + stepMinutes * MIN), zone }));
      if ((t / MIN) % Math.max(5, stepMinutes) === 0) out.push(hkQuantity('HKQuantityTypeIdentifierActiveEnergyBurned', 2.5, 'kcal', { uuid: id('ae'), start: iso(t), end: iso(t + 5 * MIN), zone }));
    }
    if (workoutDay) {
      out.push(hkWorkout(ACTIVITY.running, { uuid: id('wo'), start: iso(workoutStart), end: iso(workoutStart + 45 * MIN), kcal: 480, metres: 8200, zone }));
      for (let t = workoutStart; t < workoutStart + 45 * MIN; t += (options.workoutHrSeconds ?? 5) * 1000) out.push(hkQuantity('HKQuantityTypeIdentifierHeartRate', 150 + ((t / 5000) % 20), 'count/min', { uuid: id('hw'), start: iso(t), zone }));
    }
    const bed = day - 60 * MIN;
    out.push(hkSleep(0, { uuid: id('sl'), start: iso(bed), end: iso(bed + 8 * 60 * MIN), zone }));
    const stages: [0 | 1 | 2 | 3 | 4 | 5, number][] = [[3, 60], [4, 70], [5, 40], [2, 10], [3, 90], [4, 40], [5, 60], [3, 100]];
    let t = bed + 10 * MIN;
    for (const [value, minutes] of stages) {
      out.push(hkSleep(value, { uuid: id('sl'), start: iso(t), end: iso(t + minutes * MIN), zone }));
      t += minutes * MIN;
    }
    out.push(hkQuantity('HKQuantityTypeIdentifierBodyMass', 71 + (d % 5) / 10, 'kg', { uuid: id('wt'), start: iso(day + 6.5 * 60 * MIN), zone }));
    for (const [hour, kcal] of [[8, 450], [13, 700], [19, 650]]) {
      const at = iso(day + hour * 60 * MIN);
      out.push(hkQuantity('HKQuantityTypeIdentifierDietaryEnergyConsumed', kcal, 'kcal', { uuid: id('me'), start: at, zone }));
      out.push(hkQuantity('HKQuantityTypeIdentifierDietaryCarbohydrates', kcal / 8, 'g', { uuid: id('mc'), start: at, zone }));
      out.push(hkQuantity('HKQuantityTypeIdentifierDietaryProtein', kcal / 25, 'g', { uuid: id('mp'), start: at, zone }));
    }
  }
  return out;
}
