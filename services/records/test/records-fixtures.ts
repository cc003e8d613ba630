/**
 * Test fixtures for the records service: an event-log recorder, users provisioned through the
 * users service (HTTP) and waited for in records' projection, and record builders.
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { ApiClient, eventually, Tenant } from '@wellstream/testing';

export interface EventRecorder<T = any> {
  events: T[];
  waitFor(pred: (e: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

export async function recordTopic<T = any>(log: EventLog, topic: string): Promise<EventRecorder<T>> {
  const events: T[] = [];
  const sub: Subscription = await log.tail({ topic, handle: async (m) => void events.push(JSON.parse(m.value) as T) });
  return { events, waitFor: (pred, timeoutMs = 10_000) => eventually(async () => events.find(pred), timeoutMs), stop: () => sub.stop() };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n = 0;
export const newUid = () => `rec-${Date.now().toString(36)}-${(n++).toString(36)}`;

export interface TestUser {
  id: string;
  uid: string;
  mobileToken: string;
  marketplaceToken: string;
  /** Client for POST /mobile/records with this user's mobile token. */
  mobile: ApiClient;
}

/** Creates a user through the users service and waits until records knows the mobile token. */
export async function createUser(baseUrl: string, t: Tenant, opts: { uid?: string; timezone?: string | null } = {}): Promise<TestUser> {
  const uid = opts.uid ?? newUid();
  const created = await t.api.post(`/organizations/${t.organizationId}/users`, {
    uid,
    location: { timezone: opts.timezone === undefined ? 'UTC' : opts.timezone, country_code: null },
  });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${created.text}`);
  const got = await t.api.get(`/organizations/${t.organizationId}/users/${uid}`);
  const mobile = new ApiClient(baseUrl, got.body.mobile.token);
  // Read-your-writes: the token works as soon as the user was answered (records waits for its
  // projection of the users topic). Every suite that creates users checks it this way.
  const first = await mobile.post('/mobile/records', {});
  if (first.status === 401) throw new Error(`the new user's mobile token was refused: ${first.text}`);
  return { id: got.body.id, uid, mobileToken: got.body.mobile.token, marketplaceToken: got.body.marketplace.token, mobile };
}

export const isoDay = (offsetDays = 0, from = new Date()) => new Date(from.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A valid record of each type, at `day` (YYYY-MM-DD) 10:00–10:30 UTC unless overridden. */
export function sampleRecord(type: string, day: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const start = `${day}T10:00:00Z`;
  const end = `${day}T10:30:00Z`;
  const base = { type, source: { type: 'apple_health' }, log_id: `${type}-${day}-${Math.random().toString(36).slice(2)}`, start_time: start, end_time: end };
  const series = (metric: string, unit: string, values: number[]) => ({
    type: metric,
    unit,
    origin: 'device',
    granularity: 'PT5M',
    samples: values.map((value, i) => ({ time: `${day}T10:${String(i * 5).padStart(2, '0')}:00Z`, value })),
  });
  const bodies: Record<string, Record<string, unknown>> = {
    measurement: { metrics: [{ type: 'body_weight', unit: 'kg', value: 72.4, origin: 'device' }] },
    nutrition: {
      name: 'Lunch',
      category: 'meal',
      metrics: [{ type: 'energy_consumed', unit: 'kcal', value: 640, origin: 'manual' }],
      segments: [{ name: 'Salad', metrics: [{ type: 'protein', unit: 'g', value: 21, origin: 'manual' }] }],
    },
    sleep: { metrics: [{ type: 'sleep_score', unit: 'percent', value: 81 }, { type: 'in_bed_duration', unit: 's', value: 1800 }] },
    summary: { category: 'daily', metrics: [{ type: 'steps', unit: 'count', value: 8123, origin: 'device' }] },
    workout: {
      category: 'running',
      name: 'Morning run',
      metrics: [
        { type: 'active_duration', unit: 's', value: 1750 },
        { type: 'distance', unit: 'm', value: 5012 },
        { type: 'energy_burned', unit: 'kcal', value: 350 },
        { type: 'avg_heart_rate', unit: 'bpm', value: 148 },
      ],
      segments: [{ name: 'Lap 1', start_time: start, end_time: `${day}T10:10:00Z`, metrics: [{ type: 'distance', unit: 'm', value: 1000 }] }],
    },
    intraday: { metrics: [series('heart_rate', 'bpm', [62, 64, 71]), series('steps', 'count', [0, 120, 340])] },
    cgm: { metrics: [series('blood_glucose', 'mg/dl', [98, 104, 111])] },
  };
  return { ...base, ...bodies[type], ...extra };
}

export const PLURAL: Record<string, string> = {
  measurement: 'measurements',
  nutrition: 'nutrition',
  sleep: 'sleep',
  summary: 'summaries',
  workout: 'workouts',
  intraday: 'intraday',
};
