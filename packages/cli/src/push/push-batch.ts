/**
 * What production push POSTs, built the same way: the body `{"id":<batch id>,"items":[records]}`,
 * `content-type`, the push User-Agent, `x-wellstream-batch-id`, `x-wellstream-timestamp` (Unix
 * seconds, new on every try) and `x-wellstream-signature: sha256=<hex HMAC-SHA256(secret,
 * "<timestamp>.<body>")>`. A receiver written against `listen` is therefore the one that runs in
 * production. Batch ids are UUID-shaped like production's and derived from the first event, so a
 * batch sent again (a retry, a later run) keeps its id and a receiver can drop what it already has.
 */
import { createHash } from 'node:crypto';
import { signPushPayload } from '@wellstream/sdk';

/** Production's push User-Agent (services/notifications deliver-batch). */
export const PUSH_USER_AGENT = 'Wellstream-Push/1.0';

export interface PushBatch {
  id: string;
  items: unknown[];
}

export function batchIdFor(scope: string, firstEventId: string): string {
  const h = createHash('sha256').update(`${scope}\n${firstEventId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const batchBody = (batch: PushBatch): string => JSON.stringify({ id: batch.id, items: batch.items });

/** The headers of one try of `body`, signed at `timestampSeconds`. */
export async function pushHeaders(batchId: string, body: string, secret: string, timestampSeconds = Math.floor(Date.now() / 1000)): Promise<Record<string, string>> {
  const signed = await signPushPayload(body, secret, timestampSeconds);
  return {
    'content-type': 'application/json',
    'user-agent': PUSH_USER_AGENT,
    'x-wellstream-batch-id': batchId,
    'x-wellstream-timestamp': signed['X-Wellstream-Timestamp'],
    'x-wellstream-signature': signed['X-Wellstream-Signature'],
  };
}
