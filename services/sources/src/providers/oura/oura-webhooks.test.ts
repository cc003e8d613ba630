/**
 * Oura's verification handshake and signed notifications, with the documented notification body
 * (`event_type`, `data_type`, `object_id`, `event_time`, `user_id`) and signature scheme.
 */
import { createHmac } from 'node:crypto';
import { InboundRequest, isProviderError, ProviderSettings } from '../provider.port';
import { wanted } from './oura-subscriptions';
import { handshake, parseNotification } from './oura-webhooks';

const settings: ProviderSettings = {
  clientId: 'client',
  clientSecret: 'secret',
  authUrl: 'https://cloud.ouraring.com/oauth/authorize',
  tokenUrl: 'https://api.ouraring.com/oauth/token',
  apiUrl: 'https://api.ouraring.com',
  redirectUri: 'https://wellstream.example/v2/sources/oura/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/oura/webhook',
};

const documented = { event_type: 'update', data_type: 'sleep', object_id: '12345abc', event_time: '2023-01-01T08:00:00+00:00', user_id: 'user123' };

/** Signed exactly as Oura's sample verifies: HMAC-SHA256(client secret, timestamp + JSON), upper-case hex. */
function signed(body: unknown, secret = settings.clientSecret, raw = JSON.stringify(body)): InboundRequest {
  const timestamp = '1672560000';
  const signature = createHmac('sha256', secret).update(timestamp + JSON.stringify(body)).digest('hex').toUpperCase();
  return { method: 'POST', query: {}, headers: { 'x-oura-signature': signature, 'x-oura-timestamp': timestamp }, rawBody: Buffer.from(raw) };
}

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : 'not a ProviderError';
  }
  return 'no error';
};

describe('Oura webhooks', () => {
  it('echoes the challenge for our verification token, 401 otherwise', () => {
    const get = (query: Record<string, string>): InboundRequest => ({ method: 'GET', query, headers: {}, rawBody: Buffer.alloc(0) });
    expect(handshake(settings, get({ verification_token: 'vt', challenge: 'random-string' }), 'vt')).toEqual({ status: 200, body: { challenge: 'random-string' } });
    expect(handshake(settings, get({ verification_token: 'other', challenge: 'x' }), 'vt')?.status).toBe(401);
    expect(handshake(settings, get({}), 'vt')).toBeUndefined();
  });

  it('parses the documented notification', () => {
    expect(parseNotification(settings, signed(documented))).toEqual([{ providerUserId: 'user123', resource: 'sleep', objectId: '12345abc' }]);
    expect(parseNotification(settings, signed({ ...documented, event_type: 'delete', data_type: 'workout' }))).toEqual([
      { providerUserId: 'user123', resource: 'workout', objectId: '12345abc', deleted: true },
    ]);
  });

  it('verifies a pretty-printed body against its compact JSON, as Oura\'s sample computes it', () => {
    expect(parseNotification(settings, signed(documented, settings.clientSecret, JSON.stringify(documented, null, 2)))).toHaveLength(1);
  });

  it('ignores data types we do not sync, after verifying them', () => {
    expect(parseNotification(settings, signed({ ...documented, data_type: 'daily_readiness' }))).toEqual([]);
  });

  it('refuses forged, unsigned and altered notifications with bad_signature', () => {
    expect(kindOf(() => parseNotification(settings, signed(documented, 'not-our-secret')))).toBe('bad_signature');
    const unsigned = { ...signed(documented), headers: {} };
    expect(kindOf(() => parseNotification(settings, unsigned))).toBe('bad_signature');
    const altered = { ...signed(documented), rawBody: Buffer.from(JSON.stringify({ ...documented, user_id: 'someone-else' })) };
    expect(kindOf(() => parseNotification(settings, altered))).toBe('bad_signature');
  });

  it('answers bad_request for a signed body that is not a notification', () => {
    expect(kindOf(() => parseNotification(settings, signed(['x'])))).toBe('bad_request');
    expect(kindOf(() => parseNotification(settings, signed({ data_type: 'sleep' })))).toBe('bad_request');
  });

  it('wants create/update/delete for every notified resource (heartrate has no webhooks)', () => {
    expect(wanted().map((w) => w.key)).toEqual([
      'daily_activity:create',
      'daily_activity:update',
      'daily_activity:delete',
      'sleep:create',
      'sleep:update',
      'sleep:delete',
      'workout:create',
      'workout:update',
      'workout:delete',
    ]);
  });
});
