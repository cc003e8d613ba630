/**
 * Polar's webhook deliveries ("Accesslink webhooks"): a POST per event with `Polar-Webhook-Event`
 * and `Polar-Webhook-Signature`, the lower-case hex HMAC-SHA256 of the body keyed with the
 * `signature_secret_key` Polar returned once, when the webhook was created (the service hands us
 * those secrets, newest first, in ctx.secrets).
 *
 * The PING Polar sends while creating (or re-pointing, or re-activating) the webhook arrives before
 * we can hold the new secret: it is answered 200 without a signature check and yields nothing, which
 * is harmless however it was forged. Every other event must carry a signature one of our secrets makes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InboundRequest, ProviderError, ProviderNotification, ProviderSettings, NotificationContext } from '../provider.port';
import { isObject } from './polar-json';
import { DAY_MS } from './polar-time';

/** Webhook event types we subscribe to, and the resource each one names. */
export const EVENT_RESOURCES = {
  EXERCISE: 'exercises',
  SLEEP: 'sleep',
  CONTINUOUS_HEART_RATE: 'continuous_heart_rate',
  ACTIVITY_SUMMARY: 'activities',
} as const;
export type PolarEvent = keyof typeof EVENT_RESOURCES;
/** Documented event types we do not sync (SleepWise™): verified, answered, ignored. */
const IGNORED_EVENTS = ['SLEEP_WISE_CIRCADIAN_BEDTIME', 'SLEEP_WISE_ALERTNESS'];

export function polarSignature(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readBody(raw: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ProviderError('bad_request', 'Polar notification body is not JSON');
  }
  if (!isObject(body)) throw new ProviderError('bad_request', 'Polar notification body is not an object');
  return body;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A day-keyed event (SLEEP, CONTINUOUS_HEART_RATE, ACTIVITY_SUMMARY: `date` is the user's local day)
 * becomes a window from the day before to the day after it, which holds that local day wherever the
 * user is. An EXERCISE names its `entity_id` and, as /v3/exercises lists 30 days of uploads, the
 * window is the 30 days up to the notification.
 */
function windowOf(event: PolarEvent, body: Record<string, unknown>, receivedMs: number): { start: Date; end: Date } | undefined {
  if (event === 'EXERCISE') {
    const sent = typeof body.timestamp === 'string' ? Date.parse(body.timestamp) : NaN;
    const at = Number.isNaN(sent) ? receivedMs : Math.min(sent, receivedMs);
    return { start: new Date(at - 29 * DAY_MS), end: new Date(at + DAY_MS) };
  }
  const day = typeof body.date === 'string' && DAY.test(body.date) ? Date.parse(`${body.date}T00:00:00Z`) : NaN;
  // A day that does not exist (the documents' own example says 2022-09-31) gives no window.
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== body.date) return undefined;
  return { start: new Date(day - DAY_MS), end: new Date(day + 2 * DAY_MS) };
}

export function parseNotification(_settings: ProviderSettings, req: InboundRequest, ctx?: NotificationContext): ProviderNotification[] {
  if (req.method !== 'POST') return [];
  const headerEvent = req.headers['polar-webhook-event'];
  const body = readBody(req.rawBody);
  if (headerEvent === 'PING' || (headerEvent === undefined && body.event === 'PING')) return [];

  const signature = req.headers['polar-webhook-signature']?.trim().toLowerCase();
  if (!signature) throw new ProviderError('bad_signature', 'Polar notification without Polar-Webhook-Signature');
  const secrets = ctx?.secrets ?? [];
  if (!secrets.some((secret) => sameText(polarSignature(secret, req.rawBody), signature))) {
    throw new ProviderError('bad_signature', secrets.length ? 'Polar notification signature mismatch' : 'Polar notification received but no webhook secret is held');
  }

  const event = body.event;
  if (typeof event !== 'string' || (headerEvent !== undefined && headerEvent !== event)) throw new ProviderError('bad_request', 'Polar notification event is missing or differs from Polar-Webhook-Event');
  if (IGNORED_EVENTS.includes(event)) return [];
  if (!(event in EVENT_RESOURCES)) throw new ProviderError('bad_request', `Polar notification has an unknown event ${event.slice(0, 40)}`);
  const userId = body.user_id;
  if (!(typeof userId === 'number' && Number.isSafeInteger(userId)) && !(typeof userId === 'string' && /^\d+$/.test(userId))) {
    throw new ProviderError('bad_request', 'Polar notification lacks user_id');
  }
  const e = event as PolarEvent;
  const window = windowOf(e, body, Date.now());
  const objectId = e === 'EXERCISE' && typeof body.entity_id === 'string' && body.entity_id !== '' ? body.entity_id : undefined;
  return [{ providerUserId: String(userId), resource: EVENT_RESOURCES[e], ...(window ? { window } : {}), ...(objectId ? { objectId } : {}) }];
}
