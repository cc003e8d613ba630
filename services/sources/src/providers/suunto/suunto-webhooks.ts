/**
 * Suunto's webhook notifications (apizone.suunto.com "Webhook notifications"): POSTed to the URL
 * set in our application's settings, signed with the notification secret set there. The signature
 * is `X-HMAC-SHA256-Signature`, the hex HMAC-SHA256 of the raw body under that secret; it is checked
 * before anything is read, so a forged notification is refused (401) and fetches nothing.
 * `type` names the notification: WORKOUT_CREATED (its `workout.workoutKey` is read by key), and the
 * 24/7 activity, sleep and recovery data (their window re-read). `username` is the Suunto user.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InboundRequest, ProviderError, ProviderNotification, ProviderSettings } from '../provider.port';
import { isObject, isoTime } from './suunto-json';

export const SIGNATURE_HEADER = 'x-hmac-sha256-signature';

export const signBody = (secret: string, body: Buffer | string): string => createHmac('sha256', secret).update(body).digest('hex');

/** Throws bad_signature unless the body carries the notification secret's signature. */
export function verifySignature(settings: ProviderSettings, req: InboundRequest): void {
  const secret = settings.extra?.NOTIFICATION_SECRET;
  // Without the secret nothing can be told from a forgery: every notification is refused.
  if (!secret) throw new ProviderError('bad_signature', 'Suunto: no notification secret is configured');
  const given = (req.headers[SIGNATURE_HEADER] ?? '').trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) throw new ProviderError('bad_signature', 'Suunto notification: missing or malformed signature');
  const expected = Buffer.from(signBody(secret, req.rawBody), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) throw new ProviderError('bad_signature', 'Suunto notification: signature does not match');
}

/** The 24/7 notification types and the resources each re-reads. Recovery maps to no catalog metric. */
const DATA_TYPES: Record<string, string[]> = {
  SUUNTO_247_ACTIVITY_CREATED: ['activity', 'daily_activity'],
  SUUNTO_247_SLEEP_CREATED: ['sleep'],
  SUUNTO_247_RECOVERY_CREATED: [],
};

const DAY_MS = 86_400_000;

/**
 * The days the notification's samples cover, when it carries them (`samples[].timestamp`), padded
 * a day each side (a night crosses midnight); else none, and the service re-reads two days.
 */
function sampleWindow(body: Record<string, unknown>): { start: Date; end: Date } | undefined {
  const list = Array.isArray(body.samples) ? body.samples : [];
  const times: number[] = [];
  for (const s of list.slice(0, 5000)) {
    if (!isObject(s)) continue;
    try {
      times.push(isoTime(s.timestamp, 'notification sample').ms);
    } catch {
      // An unreadable sample time: the default window covers it.
    }
  }
  if (!times.length) return undefined;
  const start = Math.min(...times) - DAY_MS;
  const end = Math.max(...times) + DAY_MS;
  return end - start > 30 * DAY_MS ? undefined : { start: new Date(start), end: new Date(end) };
}

export function parseNotification(settings: ProviderSettings, req: InboundRequest): ProviderNotification[] {
  verifySignature(settings, req);
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw new ProviderError('bad_request', 'Suunto notification is not JSON');
  }
  if (!isObject(body) || typeof body.type !== 'string' || typeof body.username !== 'string' || !body.username) {
    throw new ProviderError('bad_request', 'Suunto notification has no type or username');
  }
  const providerUserId = body.username;
  if (body.type === 'WORKOUT_CREATED') {
    const workout = body.workout;
    const key = isObject(workout) ? workout.workoutKey : undefined;
    if (typeof key !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(key)) throw new ProviderError('bad_request', 'Suunto WORKOUT_CREATED has no workout key');
    return [{ providerUserId, resource: 'workouts', objectId: key }];
  }
  const resources = DATA_TYPES[body.type];
  // Routes and types we do not read: answered 2xx, nothing to fetch.
  if (!resources) return [];
  const window = sampleWindow(body);
  return resources.map((resource) => ({ providerUserId, resource, ...(window ? { window } : {}) }));
}
