/**
 * The WHOOP simulator's webhook deliveries, after developer.whoop.com/docs/developing/webhooks:
 * a POST of `{user_id, id, type, trace_id}` to the app's one webhook URL (set in WHOOP's dashboard,
 * not through an API), signed with `X-WHOOP-Signature` = base64(HMAC-SHA256(client secret,
 * `X-WHOOP-Signature-Timestamp` + raw body)), the timestamp in milliseconds since the epoch.
 * WHOOP retries a delivery that did not get a 2XX ("five times over about one hour") and may send
 * one twice; `trace_id` identifies the event, so a repeat carries the same body.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { postToWebhook } from '../../../../test/simulators/kit/sim-base';

export interface WhoopEvent {
  user_id: number;
  /** v2 model: the object's UUID; for recovery events the UUID of the recovery's sleep. */
  id: string | number;
  type: string;
  trace_id: string;
}

export const event = (userId: number, id: string | number, type: string): WhoopEvent => ({ user_id: userId, id, type, trace_id: randomUUID() });

export function signWebhook(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(timestamp + rawBody).digest('base64');
}

/** One request exactly as sent: what a repeat of it sends again, byte for byte. */
export interface Delivery {
  url: string;
  raw: string;
  headers: Record<string, string>;
}

/** Signs one event; `secret` is the client secret unless forging, `sentAt` now unless it is a late retry. */
export function signedDelivery(url: string, body: WhoopEvent, secret: string, sentAt = Date.now()): Delivery {
  const raw = JSON.stringify(body);
  const timestamp = String(sentAt);
  return { url, raw, headers: { 'content-type': 'application/json', 'x-whoop-signature': signWebhook(secret, timestamp, raw), 'x-whoop-signature-timestamp': timestamp } };
}

/** POSTs a delivery; resolves to the receiver's status. */
export function post(d: Delivery): Promise<number> {
  return postToWebhook(d.url, d.raw, d.headers, 10_000);
}

/** Signs and POSTs one event. Resolves to the receiver's status. */
export const deliver = (url: string, body: WhoopEvent, secret: string, sentAt = Date.now()): Promise<number> => post(signedDelivery(url, body, secret, sentAt));
