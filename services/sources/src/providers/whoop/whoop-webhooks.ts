/**
 * WHOOP's webhooks (developer.whoop.com/docs/developing/webhooks): registered in WHOOP's Developer
 * Dashboard (there is no subscription API), sent as a POST `{user_id, id, type, trace_id}` for
 * `sleep|workout|recovery` `.updated` (created or updated) and `.deleted`.
 *
 * Signature, as WHOOP documents it:
 *   base64Encode(HMACSHA256(timestamp_header + raw_http_request_body, client_secret))
 * compared with `X-WHOOP-Signature`; `X-WHOOP-Signature-Timestamp` is milliseconds since the epoch.
 *
 * WHOOP documents no freshness window, but retries a delivery that got no 2XX "five times over about
 * one hour". A signed timestamp is therefore good for two hours (the hour and as much again for its
 * backoff and clocks), and at most 5 minutes ahead of our clock; older ones are replays (401).
 * Within those two hours a repeat is recognised by its `trace_id` (with its type and id: one
 * member's action may trigger several events): each notification carries it as `delivery`, good
 * until its timestamp's two hours end, and the service acts on the first delivery only.
 */
import { recoveryLogId } from './whoop-mapping';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InboundRequest, ProviderError, ProviderNotification, ProviderSettings } from '../provider.port';
import { isObject } from './whoop-json';

/** How old a signed timestamp may be: WHOOP's retries span about an hour. */
export const MAX_AGE_MS = 2 * 3_600_000;
/** How far ahead of our clock a timestamp may be (clocks differ). */
export const MAX_AHEAD_MS = 5 * 60_000;

/** Webhook object types → our resources. A v2 recovery event names the recovery's sleep UUID, our recovery log_id. */
const RESOURCES: Record<string, string> = { sleep: 'sleep', workout: 'workout', recovery: 'recovery' };

export function whoopSignature(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(timestamp).update(rawBody).digest('base64');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The timestamp as epoch milliseconds. WHOOP documents milliseconds; a 10-digit value can only be
 * seconds and is read as such (the signature is over the header text either way, so this is no weaker).
 */
function timestampMs(raw: string): number | undefined {
  if (!/^\d{10,13}$/.test(raw.trim())) return undefined;
  const n = Number(raw.trim());
  return n < 1e11 ? n * 1000 : n;
}

/** Throws bad_signature unless the request is signed with our client secret within the window; answers the signed time. */
export function verify(settings: ProviderSettings, req: InboundRequest, nowMs = Date.now()): number {
  const signature = req.headers['x-whoop-signature'];
  const timestamp = req.headers['x-whoop-signature-timestamp'];
  if (!signature || !timestamp) throw new ProviderError('bad_signature', 'WHOOP notification without X-WHOOP-Signature/-Timestamp');
  if (!sameText(whoopSignature(settings.clientSecret, timestamp, req.rawBody), signature.trim())) {
    throw new ProviderError('bad_signature', 'WHOOP notification signature mismatch');
  }
  const at = timestampMs(timestamp);
  if (at === undefined || nowMs - at > MAX_AGE_MS || at - nowMs > MAX_AHEAD_MS) {
    throw new ProviderError('bad_signature', 'WHOOP notification timestamp is more than two hours old or five minutes ahead');
  }
  return at;
}

const idText = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined;

/**
 * Verify, then read the body. `<object>.updated` asks for a fetch of that resource (WHOOP sends
 * creations as updates too); `<object>.deleted` becomes a deletion of log_id = `id`. Event types we
 * do not know are verified and answered 2xx but yield nothing, as WHOOP asks ("simply respond with a
 * 2XX status code"). WHOOP documents no deauthorization webhook.
 */
export function parseNotification(settings: ProviderSettings, req: InboundRequest): ProviderNotification[] {
  const signedAt = verify(settings, req);
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw new ProviderError('bad_request', 'WHOOP notification body is not JSON');
  }
  if (!isObject(body)) throw new ProviderError('bad_request', 'WHOOP notification body is not an object');
  const userId = idText(body.user_id);
  const objectId = idText(body.id);
  const type = body.type;
  if (!userId || !objectId || typeof type !== 'string') throw new ProviderError('bad_request', 'WHOOP notification lacks user_id, id or type');
  const m = /^([a-z_]+)\.(updated|deleted)$/.exec(type);
  const resource = m ? RESOURCES[m[1]] : undefined;
  if (!m || !resource) return [];
  const deleted = m[2] === 'deleted' ? { deleted: true, ...(resource === 'recovery' ? { deletedLogIds: [recoveryLogId(objectId)] } : {}) } : {};
  const traceId = typeof body.trace_id === 'string' && body.trace_id !== '' ? body.trace_id : undefined;
  const delivery = traceId ? { delivery: { id: `${traceId}:${type}:${objectId}`, expiresAt: new Date(signedAt + MAX_AGE_MS) } } : {};
  return [{ providerUserId: userId, resource, objectId, ...deleted, ...delivery }];
}
