/**
 * The Google Health API's webhook deliveries (developers.google.com/health/webhooks and the
 * projects.subscribers reference). A subscriber is registered with an `endpointAuthorization.secret`
 * that Google sends verbatim as the `Authorization` header of every notification; while the
 * subscriber is created Google POSTs `{"type": "verification"}` with it (expecting 201) and without
 * it (expecting 401 or 403). That header is what we verify. The `X-HEALTHAPI-SIGNATURE` ECDSA P-256
 * signature is not checked: Google publishes no public key for it (see the README).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { HandshakeAnswer, InboundRequest, ProviderError, ProviderNotification, ProviderSettings } from '../provider.port';
import { DAILY_SUMMARY_TYPES } from './google-health-daily';
import { isObject, type Json } from './google-health-json';
import { DAILY_OXYGEN_SATURATION } from './google-health-vitals';

/** Data types we sync that Google notifies (webhooks page, "Supported data types"), by URL id → our resource (its filter name). */
const NOTIFIED: Record<string, string> = {
  exercise: 'exercise',
  sleep: 'sleep',
  'heart-rate': 'heart_rate',
  weight: 'weight',
  'body-fat': 'body_fat',
  ...Object.fromEntries(DAILY_SUMMARY_TYPES.map((t) => [t, 'daily_summary'])),
  [DAILY_OXYGEN_SATURATION.urlType]: 'daily_oxygen_saturation',
};

/**
 * The `Authorization` value the operator registers as the subscriber's secret: derived from the
 * client secret (so no extra setting, and the header never reveals the client secret itself).
 */
export function webhookAuthorization(clientSecret: string): string {
  return `Bearer ${createHmac('sha256', clientSecret).update('wellstream google_health webhook').digest('base64url')}`;
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function authorized(settings: ProviderSettings, req: InboundRequest): boolean {
  const given = req.headers.authorization;
  return typeof given === 'string' && sameText(given.trim(), webhookAuthorization(settings.clientSecret));
}

function body(req: InboundRequest): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw new ProviderError('bad_request', 'Google Health notification body is not JSON');
  }
  if (!isObject(parsed)) throw new ProviderError('bad_request', 'Google Health notification body is not an object');
  return parsed;
}

/**
 * The subscriber verification POST: 201 with our secret, 401 without it or with another. Any other
 * request is not a handshake (undefined), so notifications go on to parseNotification.
 */
export function handshake(settings: ProviderSettings, req: InboundRequest): HandshakeAnswer | undefined {
  if (req.method !== 'POST') return undefined;
  let parsed: Json;
  try {
    parsed = body(req);
  } catch {
    return undefined;
  }
  if (parsed.type !== 'verification') return undefined;
  return authorized(settings, req) ? { status: 201, body: { status: 'verified' } } : { status: 401, body: { error: 'unauthorized' } };
}

const USER = /^users\/([A-Za-z0-9-]{1,63})$/;
const DATA_TYPE = /^users\/([A-Za-z0-9-]{1,63})\/dataTypes\/([a-z0-9-]+)$/;

/**
 * The notification names a user and a data type; the documents show neither field's name in the
 * material read, so every spelling the API uses for them elsewhere is accepted: `healthUserId`,
 * `user` (`users/{id}`), `dataType` as kebab-case or as `users/{id}/dataTypes/{type}`. An `interval`
 * (`startTime`, `endTime`) narrows the refetch; without one the service re-reads recent days.
 */
function read(parsed: Json): { userId: string; dataType: string; window?: { start: Date; end: Date } } {
  const rawType = typeof parsed.dataType === 'string' ? parsed.dataType : undefined;
  const typed = rawType ? DATA_TYPE.exec(rawType) : null;
  const dataType = typed ? typed[2] : rawType;
  const fromUser = typeof parsed.user === 'string' ? USER.exec(parsed.user)?.[1] : undefined;
  const userId = typeof parsed.healthUserId === 'string' ? parsed.healthUserId : (fromUser ?? typed?.[1]);
  if (!userId || !/^[A-Za-z0-9-]{1,63}$/.test(userId) || !dataType || !/^[a-z0-9-]+$/.test(dataType)) {
    throw new ProviderError('bad_request', 'Google Health notification names no user or data type');
  }
  const interval = isObject(parsed.interval) ? parsed.interval : undefined;
  const start = typeof interval?.startTime === 'string' ? Date.parse(interval.startTime) : NaN;
  const end = typeof interval?.endTime === 'string' ? Date.parse(interval.endTime) : NaN;
  const window = Number.isFinite(start) && Number.isFinite(end) && end > start ? { start: new Date(start), end: new Date(end) } : undefined;
  return { userId, dataType, ...(window ? { window } : {}) };
}

/** Verify the Authorization header, then read which user's which data changed (a fetch follows). */
export function parseNotification(settings: ProviderSettings, req: InboundRequest): ProviderNotification[] {
  if (!authorized(settings, req)) throw new ProviderError('bad_signature', 'Google Health notification without our subscriber secret');
  const parsed = body(req);
  if (parsed.type === 'verification') return [];
  const { userId, dataType, window } = read(parsed);
  const resource = Object.hasOwn(NOTIFIED, dataType) ? NOTIFIED[dataType] : undefined;
  if (!resource) return [];
  return [{ providerUserId: userId, resource, ...(window ? { window } : {}) }];
}
