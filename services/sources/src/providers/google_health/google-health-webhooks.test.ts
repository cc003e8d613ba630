/**
 * Google Health notifications: the subscriber secret as the Authorization header (anything else is
 * bad_signature, answered 401), the verification POST (201 with it, 401 without), and the user and
 * data type in each spelling the resource names use.
 */
import { InboundRequest, isProviderError, ProviderSettings } from '../provider.port';
import { handshake, parseNotification, webhookAuthorization } from './google-health-webhooks';

const settings: ProviderSettings = {
  clientId: 'client.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-secret',
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  apiUrl: 'https://health.googleapis.com',
  redirectUri: 'https://wellstream.example/v2/sources/google_health/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/google_health/webhook',
};

const post = (body: unknown, authorization?: string): InboundRequest => ({
  method: 'POST',
  query: {},
  headers: authorization ? { authorization } : {},
  rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});
const ours = webhookAuthorization(settings.clientSecret);

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : String(e);
  }
  return 'no error';
};

describe('Google Health webhooks', () => {
  it('answers the subscriber verification 201 with our secret and 401 without it', () => {
    expect(handshake(settings, post({ type: 'verification' }, ours))?.status).toBe(201);
    expect(handshake(settings, post({ type: 'verification' }))?.status).toBe(401);
    expect(handshake(settings, post({ type: 'verification' }, 'Bearer guess'))?.status).toBe(401);
    expect(handshake(settings, post({ dataType: 'sleep' }, ours))).toBeUndefined();
    expect(handshake(settings, { ...post('x'), method: 'GET' })).toBeUndefined();
  });

  it('reads the user and data type in each spelling, with the changed interval', () => {
    const window = { startTime: '2026-11-20T06:00:00Z', endTime: '2026-11-20T07:00:00Z' };
    expect(parseNotification(settings, post({ user: 'users/123', dataType: 'users/123/dataTypes/exercise', interval: window }, ours))).toEqual([
      { providerUserId: '123', resource: 'exercise', window: { start: new Date(window.startTime), end: new Date(window.endTime) } },
    ]);
    expect(parseNotification(settings, post({ healthUserId: 'abc-1', dataType: 'sleep' }, ours))).toEqual([{ providerUserId: 'abc-1', resource: 'sleep' }]);
    expect(parseNotification(settings, post({ dataType: 'users/9/dataTypes/weight' }, ours))).toEqual([{ providerUserId: '9', resource: 'weight' }]);
    expect(parseNotification(settings, post({ healthUserId: '9', dataType: 'heart-rate' }, ours))).toEqual([{ providerUserId: '9', resource: 'heart_rate' }]);
    // Each rolled-up data type refetches the local days' summaries; a data type we do not sync is ignored.
    expect(parseNotification(settings, post({ healthUserId: '9', dataType: 'steps' }, ours))).toEqual([{ providerUserId: '9', resource: 'daily_summary' }]);
    expect(parseNotification(settings, post({ healthUserId: '9', dataType: 'total-calories' }, ours))).toEqual([{ providerUserId: '9', resource: 'daily_summary' }]);
    expect(parseNotification(settings, post({ healthUserId: '9', dataType: 'body-fat' }, ours))).toEqual([{ providerUserId: '9', resource: 'body_fat' }]);
    expect(parseNotification(settings, post({ healthUserId: '9', dataType: 'altitude' }, ours))).toEqual([]);
  });

  it('refuses a notification without our secret (401) and a malformed one (400)', () => {
    expect(kindOf(() => parseNotification(settings, post({ healthUserId: '9', dataType: 'sleep' })))).toBe('bad_signature');
    expect(kindOf(() => parseNotification(settings, post({ healthUserId: '9', dataType: 'sleep' }, webhookAuthorization('other'))))).toBe('bad_signature');
    expect(kindOf(() => parseNotification(settings, post('{not json', ours)))).toBe('bad_request');
    expect(kindOf(() => parseNotification(settings, post({ dataType: 'sleep' }, ours)))).toBe('bad_request');
    expect(kindOf(() => parseNotification(settings, post({ healthUserId: '../x', dataType: 'sleep' }, ours)))).toBe('bad_request');
  });
});
