/**
 * The demo source's data for one local day of one user, as records posted to ingestion: a daily
 * summary, the sleep that starts that evening, a morning weight, meals, an occasional workout and
 * intraday heart rate and steps. Pure: the same (user, date, zone, upto) always gives the same
 * records, and only what has happened by `uptoTime` is included (a day grows through the day,
 * keeping each record's log_id, so later ticks update the same records).
 */
import { addDays, localToUtc, toRecordTime } from '@wellstream/clock';
import { between, dayPlanOf, DayPlan, personaOf, seededRandom } from './demo-day-plan';
import { Food, MENUS } from './demo-menus';

export type DemoRecord = Record<string, unknown> & { type: string; log_id: string; start_time: string; end_time: string };

const SLOT = 300; // 5-minute intraday resolution
/** Slots generated per day: 25 h, so a DST fall-back day fits; a day uses as many as it has. */
const SLOTS = 90_000 / SLOT;
const SOURCE = { type: 'demo' };
const WATCH = { type: 'demo', device: { name: 'Demo Watch', type: 'watch', manufacturer: 'Wellstream', model: 'DW-1' } };
const SCALE = { type: 'demo', device: { name: 'Demo Scale', type: 'scale', manufacturer: 'Wellstream', model: 'DS-1' } };

const metric = (type: string, unit: string, value: number, origin = 'device') => ({ type, unit, value: Math.round(value * 10) / 10, origin });

interface Slots {
  hr: number[];
  steps: number[];
  awake: boolean[];
}

/** Heart rate and steps per 5-minute slot of the whole day (independent of upto, for determinism). */
function slotsOf(userId: string, date: string, plan: DayPlan): Slots {
  const p = personaOf(userId);
  const r = seededRandom(`slots|${userId}|${date}`);
  const out: Slots = { hr: [], steps: [], awake: [] };
  const w = plan.workout;
  for (let s = 0; s < SLOTS; s++) {
    const t = s * SLOT;
    const awake = t >= plan.wake && t < plan.bed;
    const inWorkout = w !== null && t >= w.start && t < w.start + w.duration;
    const nearMeal = plan.meals.some((m) => t >= m.at && t < m.at + 3600);
    let hr: number;
    let steps: number;
    if (!awake) {
      hr = plan.restingHr - 4 + between(r, 0, 6);
      steps = r() < 0.02 ? Math.round(between(r, 5, 40)) : 0;
    } else if (inWorkout && w) {
      hr = w.avgHr + between(r, -8, Math.max(1, w.maxHr - w.avgHr));
      const cadence = w.category === 'running' ? 165 : w.category === 'walking' ? 112 : w.category === 'strength' ? 8 : 0;
      steps = Math.round(cadence * 5 * between(r, 0.85, 1.05));
    } else {
      hr = plan.restingHr + 12 + between(r, 0, 22) + (nearMeal ? 6 : 0);
      steps = r() < 0.6 ? Math.round(between(r, 0, 30)) : Math.round(between(r, 30, 220) * p.activity);
    }
    out.hr.push(Math.round(hr));
    out.steps.push(steps);
    out.awake.push(awake);
  }
  return out;
}

function mealRecord(date: string, at: Date, kind: 'breakfast' | 'lunch' | 'dinner', scale: number, choice: number): DemoRecord {
  const meal = MENUS[kind][Math.floor(choice * MENUS[kind].length)];
  const nutrients = (food: Food, k: number) => [
    metric('energy_consumed', 'kcal', food.kcal * k),
    metric('carbohydrate', 'g', food.carbohydrate * k),
    metric('protein', 'g', food.protein * k),
    metric('saturated_fat', 'g', food.saturated_fat * k),
    metric('unsaturated_fat', 'g', food.unsaturated_fat * k),
    metric('dietary_fiber', 'g', food.dietary_fiber * k),
    metric('sugars', 'g', food.sugars * k),
    metric('sodium', 'mg', food.sodium * k),
    metric('cholesterol', 'mg', food.cholesterol * k),
  ].map((m) => ({ ...m, origin: 'manual' }));
  const total = meal.foods.reduce<Food>(
    (acc, x) => Object.fromEntries(Object.entries(acc).map(([key, v]) => [key, typeof v === 'number' ? v + (x[key as keyof Food] as number) : v])) as unknown as Food,
    { name: meal.name, kcal: 0, carbohydrate: 0, protein: 0, saturated_fat: 0, unsaturated_fat: 0, dietary_fiber: 0, sugars: 0, sodium: 0, cholesterol: 0 },
  );
  const t = toRecordTime(at);
  return {
    type: 'nutrition',
    source: SOURCE,
    log_id: `demo-${kind}-${date}`,
    start_time: t,
    end_time: toRecordTime(new Date(at.getTime() + 20 * 60_000)),
    name: meal.name,
    category: 'meal',
    metrics: nutrients(total, scale),
    segments: meal.foods.map((food) => ({ name: food.name, metrics: nutrients(food, scale) })),
  };
}

export function generateDemoDay(userId: string, date: string, timeZone: string | null, uptoTime: Date): DemoRecord[] {
  const tz = timeZone ?? 'UTC';
  const plan = dayPlanOf(userId, date);
  const next = dayPlanOf(userId, addDays(date, 1));
  const persona = personaOf(userId);
  const at = (secondsOfDay: number) => localToUtc(tz, date, secondsOfDay);
  const upto = uptoTime.getTime();
  const done = (d: Date) => d.getTime() <= upto;
  const dayStart = at(0);
  if (!done(dayStart)) return [];
  const out: DemoRecord[] = [];

  // Slots run in real (UTC) time from local midnight, so DST days have 23 or 25 hours of them.
  const slotTime = (s: number) => new Date(dayStart.getTime() + s * SLOT * 1000);
  const daySlots = Math.round((at(86_400).getTime() - dayStart.getTime()) / (SLOT * 1000));
  const slots = slotsOf(userId, date, plan);
  let included = 0;
  while (included < daySlots && done(slotTime(included + 1))) included++;
  if (included > 0) {
    const samples = (values: number[]) => values.slice(0, included).map((value, s) => ({ time: toRecordTime(slotTime(s)), value }));
    out.push({
      type: 'intraday',
      source: WATCH,
      log_id: `demo-intraday-${date}`,
      start_time: toRecordTime(dayStart),
      end_time: toRecordTime(slotTime(included)),
      metrics: [
        { type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: 'PT5M', samples: samples(slots.hr) },
        { type: 'steps', unit: 'count', origin: 'device', granularity: 'PT5M', samples: samples(slots.steps) },
      ],
    });
  }

  const wakeAt = at(plan.wake);
  const weighAt = at(plan.wake + 15 * 60);
  if (done(weighAt)) {
    out.push({ type: 'measurement', source: SCALE, log_id: `demo-weight-${date}`, start_time: toRecordTime(weighAt), end_time: toRecordTime(weighAt), metrics: [metric('body_weight', 'kg', plan.weightKg)] });
  }

  for (const meal of plan.meals) {
    const t = at(meal.at);
    if (done(t)) out.push(mealRecord(date, t, meal.kind, meal.scale, meal.choice));
  }

  const w = plan.workout;
  let workoutEnergy = 0;
  if (w && done(at(w.start + w.duration))) {
    const minutes = w.duration / 60;
    const kcalPerMin = { running: 11, cycling: 9, swimming: 9.5, walking: 5, strength: 6.5 }[w.category];
    workoutEnergy = Math.round(kcalPerMin * minutes * (persona.weightKg / 75));
    const speed = { running: 2.9, cycling: 6.5, swimming: 0.7, walking: 1.4, strength: 0 }[w.category];
    const metrics = [metric('active_duration', 's', w.duration), metric('energy_burned', 'kcal', workoutEnergy), metric('avg_heart_rate', 'bpm', w.avgHr), metric('max_heart_rate', 'bpm', w.maxHr)];
    if (speed > 0) metrics.push(metric('distance', 'm', Math.round(speed * w.duration)), metric('avg_speed', 'm/s', speed));
    if (w.category === 'running' || w.category === 'walking') {
      const first = w.start / SLOT;
      metrics.push(metric('steps', 'count', slots.steps.slice(first, first + w.duration / SLOT).reduce((a, b) => a + b, 0)));
    }
    out.push({
      type: 'workout',
      source: WATCH,
      log_id: `demo-workout-${date}`,
      start_time: toRecordTime(at(w.start)),
      end_time: toRecordTime(at(w.start + w.duration)),
      category: w.category,
      name: `${w.category[0].toUpperCase()}${w.category.slice(1)} session`,
      metrics,
    });
  }

  // Sleep that starts this evening and ends at tomorrow's wake-up: it belongs to this local day.
  const sleepStart = at(plan.bed);
  const sleepEnd = localToUtc(tz, addDays(date, 1), next.wake);
  if (done(sleepEnd)) {
    const r = seededRandom(`sleep|${userId}|${date}`);
    const inBed = (sleepEnd.getTime() - sleepStart.getTime()) / 1000;
    const fallAsleep = Math.round(between(r, 300, 1500));
    const awakeDuration = Math.round(between(r, 120, 1800));
    const asleep = inBed - fallAsleep - awakeDuration;
    const deep = Math.round(asleep * between(r, 0.14, 0.22));
    const rem = Math.round(asleep * between(r, 0.19, 0.25));
    const score = Math.max(40, Math.min(98, Math.round(60 + (asleep / 3600 - 5) * 10 - awakeDuration / 300 + between(r, -5, 5))));
    out.push({
      type: 'sleep',
      source: WATCH,
      log_id: `demo-sleep-${date}`,
      start_time: toRecordTime(sleepStart),
      end_time: toRecordTime(sleepEnd),
      metrics: [
        metric('in_bed_duration', 's', inBed),
        metric('sleep_duration', 's', asleep),
        metric('time_to_fall_asleep', 's', fallAsleep),
        metric('awake_count', 'count', Math.round(between(r, 0, 4))),
        metric('awake_duration', 's', awakeDuration),
        metric('restless_count', 'count', Math.round(between(r, 2, 12))),
        metric('deep_sleep_duration', 's', deep),
        metric('rem_sleep_duration', 's', rem),
        metric('light_sleep_duration', 's', asleep - deep - rem),
        metric('sleep_score', 'percent', score),
      ],
    });
  }

  if (included > 0) {
    const steps = slots.steps.slice(0, included).reduce((a, b) => a + b, 0);
    const zones = { very_low: 0, low: 0, medium: 0, high: 0 };
    slots.hr.slice(0, included).forEach((hr, s) => {
      if (!slots.awake[s]) return;
      const zone = hr < 90 ? 'very_low' : hr < 110 ? 'low' : hr < 140 ? 'medium' : 'high';
      zones[zone] += SLOT;
    });
    const fraction = included / daySlots;
    const active = steps * 0.04 * (persona.weightKg / 75) + workoutEnergy;
    const basal = persona.basalKcalPerDay * fraction;
    const floors = Math.round((steps / 1000) * plan.floorsPerKStep);
    const metrics = [
      metric('steps', 'count', steps),
      metric('distance', 'm', Math.round(steps * persona.strideM)),
      metric('floors_climbed', 'count', floors),
      metric('elevation', 'm', floors * 3),
      metric('active_energy_burned', 'kcal', Math.round(active)),
      metric('basal_energy_burned', 'kcal', Math.round(basal)),
      metric('energy_burned', 'kcal', Math.round(active) + Math.round(basal)),
      metric('heart_rate_zone_very_low', 's', zones.very_low),
      metric('heart_rate_zone_low', 's', zones.low),
      metric('heart_rate_zone_medium', 's', zones.medium),
      metric('heart_rate_zone_high', 's', zones.high),
    ];
    if (done(wakeAt)) metrics.push(metric('resting_heart_rate', 'bpm', plan.restingHr));
    out.push({
      type: 'summary',
      source: WATCH,
      log_id: `demo-summary-${date}`,
      start_time: toRecordTime(dayStart),
      end_time: toRecordTime(slotTime(included)),
      category: 'daily',
      metrics,
    });
  }
  return out;
}
