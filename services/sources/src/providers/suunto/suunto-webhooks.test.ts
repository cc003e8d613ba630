/**
 * Suunto's webhook notifications as its "Webhook notifications" page shows them: the signature
 * (hex HMAC-SHA256 of the raw body under our notification secret, `X-HMAC-SHA256-Signature`) is
 * checked before anything is read; WORKOUT_CREATED names its workout; the 24/7 types re-read a
 * window; anything else is answered and ignored.
 */
import { InboundRequest, isProviderError, ProviderSettings } from '../provider.port';
import { parseNotification, signBody } from './suunto-webhooks';

const settings: ProviderSettings = {
  clientId: 'c', clientSecret: 's', authUrl: 'https://a/oauth/authorize', tokenUrl: 'https://a/oauth/token', apiUrl: 'https://api',
  redirectUri: 'https://w/cb', webhookUrl: 'https://w/webhook', extra: { SUBSCRIPTION_KEY: 'k', NOTIFICATION_SECRET: 'notification-secret' },
};

/** The page's New Workout example, as Suunto posts it. */
const WORKOUT_CREATED = {
  type: 'WORKOUT_CREATED', username: 'johndoe123',
  workout: { workoutKey: '67604889401b942184624cb8', activityId: 3, startTime: 1702729200000, totalTime: 3600, energyConsumption: 500, stepCount: 8500, totalAscent: 120.5, totalDescent: 110.3, totalDistance: 10000, hrdata: { workoutAvgHR: 145, workoutMaxHR: 175 }, avgSpeed: 2.78, maxSpeed: 6, timeOffsetInMinutes: 120 },
  gear: { manufacturer: 'Suunto', name: 'Suunto Vertical', productType: 'SPORT_WATCH' },
};

function request(body: unknown, signature?: string): InboundRequest {
  const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return { method: 'POST', query: {}, headers: signature === undefined ? {} : { 'x-hmac-sha256-signature': signature }, rawBody: raw };
}
const signed = (body: unknown, secret = 'notification-secret') => request(body, signBody(secret, Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))));

function kind(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : String(e);
  }
  return 'no error';
}

it('reads a signed WORKOUT_CREATED as its workout, by key', () => {
  expect(parseNotification(settings, signed(WORKOUT_CREATED))).toEqual([{ providerUserId: 'johndoe123', resource: 'workouts', objectId: '67604889401b942184624cb8' }]);
});

it('accepts the signature in either case of hex', () => {
  const r = signed(WORKOUT_CREATED);
  r.headers['x-hmac-sha256-signature'] = r.headers['x-hmac-sha256-signature'].toUpperCase();
  expect(parseNotification(settings, r)).toHaveLength(1);
});

it('refuses a forged, tampered, unsigned or base64-signed notification before reading it', () => {
  expect(kind(() => parseNotification(settings, signed(WORKOUT_CREATED, 'wrong-secret')))).toBe('bad_signature');
  const tampered = signed(WORKOUT_CREATED);
  const other = request({ ...WORKOUT_CREATED, username: 'someone-else' }, tampered.headers['x-hmac-sha256-signature']);
  expect(kind(() => parseNotification(settings, other))).toBe('bad_signature');
  expect(kind(() => parseNotification(settings, request(WORKOUT_CREATED)))).toBe('bad_signature');
  const b64 = Buffer.from(signBody('notification-secret', JSON.stringify(WORKOUT_CREATED)), 'hex').toString('base64');
  expect(kind(() => parseNotification(settings, request(WORKOUT_CREATED, b64)))).toBe('bad_signature');
  // Garbage that is not even JSON, unsigned: 401, never parsed.
  expect(kind(() => parseNotification(settings, request('{not json', 'zz')))).toBe('bad_signature');
});

it('refuses every notification when no notification secret is configured', () => {
  expect(kind(() => parseNotification({ ...settings, extra: { SUBSCRIPTION_KEY: 'k' } }, signed(WORKOUT_CREATED)))).toBe('bad_signature');
});

it('answers a signed but malformed notification with bad_request', () => {
  expect(kind(() => parseNotification(settings, signed('{not json')))).toBe('bad_request');
  expect(kind(() => parseNotification(settings, signed({ type: 'WORKOUT_CREATED' })))).toBe('bad_request');
  expect(kind(() => parseNotification(settings, signed({ type: 'WORKOUT_CREATED', username: 'u', workout: { workoutKey: '../../etc' } })))).toBe('bad_request');
});

it('re-reads the days a 24/7 notification covers; recovery and routes fetch nothing', () => {
  const sleep = { type: 'SUUNTO_247_SLEEP_CREATED', username: 'u1', samples: [{ timestamp: '2026-09-13T00:10:00.000+02:00', entryData: { Duration: 27000 } }] };
  const [n] = parseNotification(settings, signed(sleep));
  expect(n).toMatchObject({ providerUserId: 'u1', resource: 'sleep' });
  expect(n.window!.start.toISOString()).toBe('2026-09-11T22:10:00.000Z');
  expect(n.window!.end.toISOString()).toBe('2026-09-13T22:10:00.000Z');
  const activity = parseNotification(settings, signed({ type: 'SUUNTO_247_ACTIVITY_CREATED', username: 'u1' }));
  expect(activity).toEqual([{ providerUserId: 'u1', resource: 'activity' }, { providerUserId: 'u1', resource: 'daily_activity' }]);
  expect(parseNotification(settings, signed({ type: 'SUUNTO_247_RECOVERY_CREATED', username: 'u1', samples: [] }))).toEqual([]);
  expect(parseNotification(settings, signed({ type: 'ROUTE_CREATED', username: 'u1' }))).toEqual([]);
});
