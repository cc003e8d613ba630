/**
 * Strava's webhook deliveries (developers.strava.com/docs/webhooks): the subscription validation GET
 * and the event POSTs.
 *
 * Strava signs nothing: an event is `{object_type, object_id, aspect_type, updates, owner_id,
 * subscription_id, event_time}` and anyone who knows the callback URL can post one. What protects us:
 * - the event must name our push subscription: Strava returns its id once, when we create it, and the
 *   adapter hands it to the service as the subscription's sealed `secret`; the service passes it back
 *   in `ctx.secrets`. An event for another subscription id is refused as bad_signature (401);
 * - the service acts only for an `owner_id` it has an active connection for (others: 200, ignored);
 * - create/update events carry no data: the service reads the named activity with that athlete's
 *   own token, so a forged one costs a fetch and changes nothing;
 * - a deauthorization ends the connection only once Strava refuses the athlete's token (the adapter
 *   is `unsignedNotifications`; the service asks with `checkAccess`).
 * Delete events are acted on directly; README.md says what that leaves open.
 */
import { timingSafeEqual } from 'node:crypto';
import { HandshakeAnswer, InboundRequest, NotificationContext, ProviderError, ProviderNotification, ProviderSettings } from '../provider.port';
import { DAY_MS, idOf, isObject, parseLossless } from './strava-json';

export const ACTIVITIES = 'activities';

/** An activity created or edited up to this long after it started is still caught by the refetch. */
export const NOTIFIED_LOOKBACK_MS = 30 * DAY_MS;

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * `GET callback?hub.mode=subscribe&hub.challenge=…&hub.verify_token=…` → `200 {"hub.challenge": "…"}`
 * when the token is ours (Strava waits two seconds for it), 401 otherwise. A GET without hub
 * parameters is not a handshake.
 */
export function handshake(_settings: ProviderSettings, req: InboundRequest, verificationToken: string): HandshakeAnswer | undefined {
  if (req.method === 'POST') return undefined;
  const mode = req.query['hub.mode'];
  const challenge = req.query['hub.challenge'];
  const token = req.query['hub.verify_token'];
  if (mode === undefined && challenge === undefined && token === undefined) return undefined;
  if (mode !== 'subscribe' || !challenge || !token || !verificationToken || !sameText(token, verificationToken)) {
    return { status: 401, body: { error: 'invalid verification token' } };
  }
  return { status: 200, body: { 'hub.challenge': challenge } };
}

const bad = (message: string) => new ProviderError('bad_request', `Strava event: ${message}`);

export function parseNotification(_settings: ProviderSettings, req: InboundRequest, ctx?: NotificationContext): ProviderNotification[] {
  let body: unknown;
  try {
    body = parseLossless(req.rawBody.toString('utf8'));
  } catch {
    throw bad('body is not JSON');
  }
  if (!isObject(body)) throw bad('body is not an object');
  const objectType = body.object_type;
  const aspect = body.aspect_type;
  const objectId = idOf(body.object_id);
  const ownerId = idOf(body.owner_id);
  const subscriptionId = idOf(body.subscription_id);
  const eventTime = typeof body.event_time === 'number' && Number.isSafeInteger(body.event_time) ? body.event_time : undefined;
  const updates = body.updates === undefined || body.updates === null ? {} : body.updates;
  if (objectType !== 'activity' && objectType !== 'athlete') throw bad('object_type is not activity or athlete');
  if (aspect !== 'create' && aspect !== 'update' && aspect !== 'delete') throw bad('aspect_type is not create, update or delete');
  if (!objectId || !ownerId || !subscriptionId || eventTime === undefined || !isObject(updates)) throw bad('object_id, owner_id, subscription_id, event_time or updates missing');

  // Our subscription's id, when the service holds it: anything else was not sent for our subscription.
  const ours = ctx?.secrets ?? [];
  if (ours.length > 0 && !ours.some((id) => sameText(id, subscriptionId))) {
    throw new ProviderError('bad_signature', 'Strava event for a subscription that is not ours');
  }

  if (objectType === 'athlete') {
    // "For athlete events, the athlete's ID": object and owner are the same athlete.
    if (objectId !== ownerId) throw bad('athlete event whose object_id is not its owner_id');
    const authorized = updates.authorized;
    if (aspect === 'update' && (authorized === 'false' || authorized === false)) {
      return [{ providerUserId: ownerId, resource: ACTIVITIES, deauthorized: true, reason: 'The athlete revoked Wellstream\'s access on Strava.' }];
    }
    return [];
  }
  if (aspect === 'delete') return [{ providerUserId: ownerId, resource: ACTIVITIES, objectId, deleted: true }];
  // create, or an edit of title, type or privacy: the service reads that activity (objectId); the
  // window (activities started in the last 30 days) is for a service that cannot fetch one object.
  const at = eventTime * 1000;
  return [{ providerUserId: ownerId, resource: ACTIVITIES, objectId, window: { start: new Date(at - NOTIFIED_LOOKBACK_MS), end: new Date(at + 60_000) } }];
}
