/**
 * The Strava simulator's seeded athletes and activities, rendered as the documented SummaryActivity
 * (the "List Athlete Activities" example's fields) and DetailedActivity. Ids are BigInt (Strava's
 * are 64-bit; one athlete's exceed 2^53 like the documented 12345678987654321) and are written to
 * the wire as bare integers by `wireJson`.
 */

export interface SimActivity {
  id: bigint;
  name: string;
  sportType: string;
  /** The deprecated `type` Strava still sends next to sport_type. */
  type: string;
  startMs: number;
  elapsedS: number;
  movingS: number;
  distanceM: number;
  elevationM: number;
  manual: boolean;
  private: boolean;
  heartrate?: { avg: number; max: number };
  cadence?: number;
  kilojoules?: number;
  calories: number;
  deviceName?: string;
}

export interface StravaAccount {
  athleteId: bigint;
  firstname: string;
  /** Olson zone the athlete records in. */
  zone: string;
  activities: SimActivity[];
  nextId: bigint;
  lastCreated?: bigint;
}

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seconds east of UTC of `zone` at `ms` (what Strava reports as utc_offset). */
export function offsetAt(zone: string, ms: number): number {
  const label = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(label);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
}

/** Strava's `timezone`: "(GMT-08:00) America/Los_Angeles", the zone's standard (January) offset. */
export function zoneLabel(zone: string): string {
  const s = offsetAt(zone, Date.UTC(2021, 0, 15));
  const abs = Math.abs(s);
  return `(GMT${s < 0 ? '-' : '+'}${String(Math.floor(abs / 3600)).padStart(2, '0')}:${String(Math.floor((abs % 3600) / 60)).padStart(2, '0')}) ${zone}`;
}

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19) + 'Z';

const KINDS = [
  { sportType: 'Run', type: 'Run', speed: [2.6, 3.6], minutes: [25, 75], elev: 60, device: 'Garmin Forerunner 255', cadence: false },
  { sportType: 'TrailRun', type: 'Run', speed: [2.0, 3.0], minutes: [40, 120], elev: 400, device: 'COROS APEX 2', cadence: false },
  { sportType: 'Ride', type: 'Ride', speed: [6, 9], minutes: [45, 180], elev: 500, device: 'Garmin Edge 530', cadence: true },
  { sportType: 'GravelRide', type: 'Ride', speed: [5, 7.5], minutes: [60, 200], elev: 700, device: 'Wahoo ELEMNT BOLT', cadence: true },
  { sportType: 'Walk', type: 'Walk', speed: [1.2, 1.6], minutes: [20, 70], elev: 20, device: 'Strava iPhone App', cadence: false },
  { sportType: 'Swim', type: 'Swim', speed: [0.6, 0.9], minutes: [30, 60], elev: 0, device: 'Garmin Swim 2', cadence: false },
  { sportType: 'WeightTraining', type: 'WeightTraining', speed: [0, 0], minutes: [30, 75], elev: 0, device: 'Apple Watch Series 8', cadence: false },
  { sportType: 'Yoga', type: 'Yoga', speed: [0, 0], minutes: [20, 60], elev: 0, device: undefined, cadence: false },
  { sportType: 'Kayaking', type: 'Kayaking', speed: [1.5, 2.2], minutes: [45, 120], elev: 0, device: 'Garmin fenix 7', cadence: false },
];

export function makeActivity(id: bigint, startMs: number, r: () => number, manual = false): SimActivity {
  const k = KINDS[Math.floor(r() * KINDS.length)];
  const between = ([lo, hi]: number[]) => lo + (hi - lo) * r();
  const movingS = Math.round(between(k.minutes) * 60);
  const elapsedS = movingS + Math.round(r() * 600);
  const speed = between(k.speed);
  const hr = !manual && r() < 0.8 ? { avg: Math.round((120 + r() * 40) * 10) / 10, max: Math.round(160 + r() * 30) } : undefined;
  return {
    id,
    name: manual ? `Manual ${k.sportType}` : `${['Morning', 'Lunch', 'Afternoon', 'Evening'][Math.floor(r() * 4)]} ${k.sportType}`,
    sportType: k.sportType,
    type: k.type,
    startMs: Math.floor(startMs / 1000) * 1000,
    elapsedS,
    movingS,
    distanceM: Math.round(speed * movingS * 10) / 10,
    elevationM: Math.round(k.elev * r() * 10) / 10,
    manual,
    private: r() < 0.1,
    ...(hr ? { heartrate: hr } : {}),
    ...(k.cadence && !manual ? { cadence: Math.round((80 + r() * 15) * 10) / 10, kilojoules: Math.round(movingS * (150 + r() * 80)) / 1000 } : {}),
    calories: manual ? 0 : Math.round(movingS * (0.12 + r() * 0.08)),
    ...(k.device && !manual ? { deviceName: k.device } : {}),
  };
}

/** `days` days of history ending at `now`: most days one activity, some two, some none; one manual entry. */
export function seedAccount(athleteId: bigint, firstId: bigint, zone: string, firstname: string, days: number, now: Date, seed: number): StravaAccount {
  const r = rng(seed);
  const a: StravaAccount = { athleteId, firstname, zone, activities: [], nextId: firstId };
  const end = now.getTime();
  for (let d = days; d >= 0; d--) {
    const dayStart = end - d * 86_400_000;
    const count = r() < 0.2 ? 0 : r() < 0.25 ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const start = dayStart - (6 + r() * 12) * 3_600_000 - i * 5 * 3_600_000;
      const act = makeActivity(a.nextId, start, r, d === Math.floor(days / 2) && i === 0);
      if (start + act.elapsedS * 1000 > end) continue; // not finished yet, so not uploaded
      a.activities.push(act);
      a.nextId += BigInt(1 + Math.floor(r() * 9));
    }
  }
  return a;
}

/** SummaryActivity as "List Athlete Activities" documents it. */
export function summary(a: StravaAccount, x: SimActivity): Record<string, unknown> {
  const offset = offsetAt(a.zone, x.startMs);
  const avgSpeed = x.movingS > 0 ? Math.round((x.distanceM / x.movingS) * 1000) / 1000 : 0;
  return {
    resource_state: 2,
    athlete: { id: a.athleteId, resource_state: 1 },
    name: x.name,
    distance: x.distanceM,
    moving_time: x.movingS,
    elapsed_time: x.elapsedS,
    total_elevation_gain: x.elevationM,
    type: x.type,
    sport_type: x.sportType,
    workout_type: null,
    id: x.id,
    external_id: x.manual ? null : `garmin_push_${x.id}`,
    upload_id: x.manual ? null : x.id * 7n + 1n,
    start_date: iso(x.startMs),
    start_date_local: iso(x.startMs + offset * 1000),
    timezone: zoneLabel(a.zone),
    utc_offset: offset,
    start_latlng: null,
    end_latlng: null,
    location_city: null,
    location_state: null,
    location_country: null,
    achievement_count: 0,
    kudos_count: Number(x.id % 7n),
    comment_count: 0,
    athlete_count: 1,
    photo_count: 0,
    map: { id: `a${x.id}`, summary_polyline: null, resource_state: 2 },
    trainer: false,
    commute: false,
    manual: x.manual,
    private: x.private,
    flagged: false,
    gear_id: null,
    from_accepted_tag: false,
    average_speed: avgSpeed,
    max_speed: Math.round(avgSpeed * 1.6 * 10) / 10,
    ...(x.cadence !== undefined ? { average_cadence: x.cadence, average_watts: 180.5, weighted_average_watts: 201, kilojoules: x.kilojoules, device_watts: true, max_watts: 480 } : {}),
    has_heartrate: x.heartrate !== undefined,
    ...(x.heartrate ? { average_heartrate: x.heartrate.avg, max_heartrate: x.heartrate.max } : {}),
    pr_count: 0,
    total_photo_count: 0,
    has_kudoed: false,
    ...(x.deviceName ? { device_name: x.deviceName } : {}),
  };
}

/** DetailedActivity ("Get Activity"): the summary plus description, calories and the rest. */
export function detailed(a: StravaAccount, x: SimActivity): Record<string, unknown> {
  return { ...summary(a, x), resource_state: 3, description: null, calories: x.calories, segment_efforts: [], splits_metric: [], laps: [], embed_token: `e${x.id}` };
}

/**
 * Records the account maps to with start_time in [from, to): every activity is one workout. Counted
 * from the seed itself, not from any answer the simulator serves.
 */
export function countRecords(a: StravaAccount, from: Date, to: Date): Partial<Record<string, number>> {
  const n = a.activities.filter((x) => x.startMs >= from.getTime() && x.startMs < to.getTime()).length;
  return n ? { workout: n } : {};
}

/** JSON with BigInt values written as bare integers, as Strava writes its 64-bit ids. */
export function wireJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `\u0000big:${v}` : v)).replace(/"\\u0000big:(-?\d+)"/g, '$1');
}
