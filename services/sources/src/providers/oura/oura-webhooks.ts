/**
 * Oura's webhook deliveries: the verification GET sent while a subscription is created, and the
 * signed POSTs that say an object changed ("Webhook Subscription Routes" of Oura's API v2 document).
 *
 * Signature, as Oura documents it: `x-oura-signature` is the upper-case hex HMAC-SHA256, keyed with
 * the app's client secret, of the `x-oura-timestamp` header followed by the JSON body.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { HandshakeAnswer, InboundRequest, ProviderError, ProviderNotification, ProviderSettings } from '../provider.port';
import { isObject } from './oura-json';

/** Webhook data types we map (heartrate is not a webhook data type in Oura's ExtApiV2DataType). */
export const NOTIFIED_RESOURCES = ['daily_activity', 'sleep', 'workout'] as const;
export const EVENT_TYPES = ['create', 'update', 'delete'] as const;

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * `GET callback?verification_token=…&challenge=…` → `200 {"challenge": "…"}` when the token is ours,
 * 401 otherwise (Oura's own example answers 401). A GET without a challenge is not a handshake.
 */
export function handshake(_settings: ProviderSettings, req: InboundRequest, verificationToken: string): HandshakeAnswer | undefined {
  if (req.method === 'POST') return undefined;
  const { challenge, verification_token: token } = req.query;
  if (challenge === undefined && token === undefined) return undefined;
  if (!challenge || !token || !verificationToken || !sameText(token, verificationToken)) return { status: 401, body: { error: 'invalid verification token' } };
  return { status: 200, body: { challenge } };
}

export function ouraSignature(secret: string, timestamp: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(timestamp).update(body).digest('hex').toUpperCase();
}

/**
 * Oura's sample signs `timestamp + JSON.stringify(req.body)`, i.e. the body re-serialized compactly.
 * We check the exact bytes received first, then that compact form of the same JSON: both need the
 * secret, so accepting either is no weaker, and a sender that pretty-prints still verifies.
 */
function signatureMatches(secret: string, timestamp: string, raw: Buffer, given: string): boolean {
  const want = given.trim().toUpperCase();
  if (sameText(ouraSignature(secret, timestamp, raw), want)) return true;
  try {
    const compact = JSON.stringify(JSON.parse(raw.toString('utf8')));
    return sameText(ouraSignature(secret, timestamp, compact), want);
  } catch {
    return false;
  }
}

/**
 * Verify, then read `{event_type, data_type, object_id, event_time, user_id}`. Data types we do not
 * sync (daily_sleep, tag, …) are verified and answered but yield nothing. No freshness window is
 * enforced on `x-oura-timestamp`: Oura does not document one, it retries a failed delivery for about
 * an hour, and a replayed notification only makes us refetch data we are allowed to read.
 */
export function parseNotification(settings: ProviderSettings, req: InboundRequest): ProviderNotification[] {
  const signature = req.headers['x-oura-signature'];
  const timestamp = req.headers['x-oura-timestamp'];
  if (!signature || !timestamp) throw new ProviderError('bad_signature', 'Oura notification without x-oura-signature/x-oura-timestamp');
  if (!signatureMatches(settings.clientSecret, timestamp, req.rawBody, signature)) throw new ProviderError('bad_signature', 'Oura notification signature mismatch');

  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw new ProviderError('bad_request', 'Oura notification body is not JSON');
  }
  if (!isObject(body)) throw new ProviderError('bad_request', 'Oura notification body is not an object');
  const { event_type: eventType, data_type: dataType, object_id: objectId, user_id: userId } = body;
  if (typeof dataType !== 'string' || typeof eventType !== 'string' || typeof userId !== 'string' || userId === '') {
    throw new ProviderError('bad_request', 'Oura notification lacks event_type, data_type or user_id');
  }
  if (!(EVENT_TYPES as readonly string[]).includes(eventType)) throw new ProviderError('bad_request', `Oura notification has an unknown event_type`);
  if (!(NOTIFIED_RESOURCES as readonly string[]).includes(dataType)) return [];
  return [
    {
      providerUserId: userId,
      resource: dataType,
      ...(typeof objectId === 'string' && objectId !== '' ? { objectId } : {}),
      ...(eventType === 'delete' ? { deleted: true } : {}),
    },
  ];
}
