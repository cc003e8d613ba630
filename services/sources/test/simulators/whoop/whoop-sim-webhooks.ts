/**
 * The WHOOP simulator's webhook deliveries, after developer.whoop.com/docs/developing/webhooks:
 * a POST of `{user_id, id, type, trace_id}` to the app's one webhook URL (set in WHOOP's dashboard,
 * not through an API), signed with `X-WHOOP-Signature` = base64(HMAC-SHA256(client secret,
 * `X-WHOOP-Signature-Timestamp` + raw body)), the timestamp in milliseconds since the epoch.
 */
import { createHmac, randomUUID } from 'node:crypto';

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

/** POSTs one event; `secret` is the client secret unless forging, `sentAt` now unless replaying. Resolves to the receiver's status. */
export async function deliver(url: string, body: WhoopEvent, secret: string, sentAt = Date.now()): Promise<number> {
  const raw = JSON.stringify(body);
  const timestamp = String(sentAt);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-whoop-signature': signWebhook(secret, timestamp, raw), 'x-whoop-signature-timestamp': timestamp },
    body: raw,
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  return res.status;
}
