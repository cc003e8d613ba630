/**
 * The simulated Dexcom accounts and their data: an EGV every five minutes (a diurnal curve with
 * meals and noise, clamped to the 40–400 mg/dL a Dexcom CGM reports, status high/low at the
 * clamps) and a fingerstick calibration about twice a week. Records are written in the shape of
 * the v3 endpoint pages; per their notes, mobile-app records (displayDevice iOS/android) carry UTC
 * offsets on systemTime and displayTime, receiver records carry none.
 */
import { randomUUID } from 'node:crypto';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export interface SimReading {
  recordId: string;
  ms: number;
  value: number;
  status: 'ok' | 'high' | 'low';
  trend: string;
  trendRate: number;
}

export interface SimUser {
  providerUserId: string;
  displayDevice: 'iOS' | 'receiver';
  /** Minutes east of UTC shown on the user's display. */
  offsetMin: number;
  transmitterId: string;
  generation: 'g6' | 'g7';
  egvs: SimReading[];
  calibrations: { recordId: string; ms: number; value: number }[];
}

/** A small deterministic PRNG (mulberry32): the same user index always gets the same data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const trendOf = (rate: number): string =>
  rate > 3 ? 'doubleUp' : rate > 2 ? 'singleUp' : rate > 1 ? 'fortyFiveUp' : rate < -3 ? 'doubleDown' : rate < -2 ? 'singleDown' : rate < -1 ? 'fortyFiveDown' : 'flat';

/** Glucose in mg/dL at `ms` for this user: a daily wave, three meal bumps, noise. */
function glucoseAt(ms: number, offsetMin: number, rnd: () => number): number {
  const localH = (((ms + offsetMin * MIN) % DAY) + DAY) % DAY / HOUR;
  let g = 115 + 15 * Math.sin((2 * Math.PI * (localH - 4)) / 24);
  for (const meal of [7.5, 12.5, 19]) {
    const dt = localH - meal;
    if (dt > 0 && dt < 3) g += 90 * (dt / 0.75) * Math.exp(1 - dt / 0.75) * 0.6;
  }
  return g + (rnd() - 0.5) * 12;
}

export function reading(user: SimUser, ms: number, rnd: () => number, prev?: SimReading): SimReading {
  const raw = Math.round(glucoseAt(ms, user.offsetMin, rnd));
  const value = Math.min(400, Math.max(40, raw));
  const trendRate = prev ? Math.round(((value - prev.value) / ((ms - prev.ms) / MIN)) * 10) / 10 : 0;
  return { recordId: randomUUID(), ms, value, status: value >= 400 ? 'high' : value <= 40 ? 'low' : 'ok', trend: trendOf(trendRate), trendRate };
}

export function createSimUser(index: number, days: number, now: Date): SimUser {
  const rnd = prng(index + 1);
  const user: SimUser = {
    providerUserId: randomUUID(),
    // Alternate the two documented time shapes: even users on the iOS app, odd ones on a receiver.
    displayDevice: index % 2 === 0 ? 'iOS' : 'receiver',
    offsetMin: [-8 * 60, 60, -5 * 60, 5 * 60 + 30][index % 4],
    transmitterId: `8${(index + 0x1000).toString(16).toUpperCase()}K${index % 10}`,
    generation: index % 2 === 0 ? 'g7' : 'g6',
    egvs: [],
    calibrations: [],
  };
  const start = now.getTime() - days * DAY;
  // A transmitter's 5-minute beat is not aligned to the clock: start 2 min 17 s past a 5-minute mark.
  let t = Math.ceil(start / (5 * MIN)) * 5 * MIN + 137_000;
  let prev: SimReading | undefined;
  for (; t < now.getTime(); t += 5 * MIN) {
    prev = reading(user, t, rnd, prev);
    user.egvs.push(prev);
  }
  // About two fingersticks a week: every 3.5 days from 07:30 UTC of the first day.
  for (let c = Math.floor(start / DAY) * DAY + 7.5 * HOUR; c < now.getTime(); c += 3.5 * DAY) {
    if (c < start) continue;
    user.calibrations.push({ recordId: randomUUID(), ms: c, value: Math.round(glucoseAt(c, user.offsetMin, rnd) + (rnd() - 0.5) * 10) });
  }
  return user;
}

/** `YYYY-MM-DDThh:mm:ss` plus, for mobile-app users, the zone (`+00:00` on systemTime, the local offset on displayTime). */
function times(user: SimUser, ms: number): { systemTime: string; displayTime: string } {
  const naive = (x: number) => new Date(x).toISOString().slice(0, 19);
  const local = naive(ms + user.offsetMin * MIN);
  if (user.displayDevice === 'receiver') return { systemTime: naive(ms), displayTime: local };
  const sign = user.offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(user.offsetMin);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return { systemTime: `${naive(ms)}+00:00`, displayTime: `${local}${zone}` };
}

/** Transmitter ticks: seconds since the (simulated) sensor session began. */
const ticks = (ms: number) => Math.floor((ms % (10 * DAY)) / 1000);

export function egvJson(user: SimUser, r: SimReading): Record<string, unknown> {
  return {
    recordId: r.recordId,
    ...times(user, r.ms),
    transmitterId: user.transmitterId,
    transmitterTicks: ticks(r.ms),
    value: r.value,
    status: r.status,
    trend: r.trend,
    trendRate: r.trendRate,
    unit: 'mg/dL',
    rateUnit: 'mg/dL/min',
    displayDevice: user.displayDevice,
    transmitterGeneration: user.generation,
  };
}

export function calibrationJson(user: SimUser, c: SimUser['calibrations'][number]): Record<string, unknown> {
  return {
    recordId: c.recordId,
    ...times(user, c.ms),
    unit: 'mg/dL',
    value: c.value,
    displayDevice: user.displayDevice,
    transmitterId: user.transmitterId,
    transmitterTicks: ticks(c.ms),
    transmitterGeneration: user.generation,
  };
}

export const moment = (user: SimUser, ms: number | undefined) => (ms === undefined ? undefined : times(user, ms));
export { DAY, HOUR, MIN };
