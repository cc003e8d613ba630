/**
 * Strava's subscription validation GET and unsigned events, with the documented event example
 * (`{"aspect_type":"update","event_time":1516126040,"object_id":1360128428,...}`).
 */
import { InboundRequest, ProviderSettings } from '../provider.port';
import { handshake, parseNotification } from './strava-webhooks';
import { wanted } from './strava-subscriptions';

const settings = { webhookUrl: 'https://wellstream.example/v2/sources/strava/webhook' } as ProviderSettings;
const documented = { aspect_type: 'update', event_time: 1516126040, object_id: 1360128428, object_type: 'activity', owner_id: 134815, subscription_id: 120475, updates: { title: 'Messy' } };
const post = (body: unknown, raw = JSON.stringify(body)): InboundRequest => ({ method: 'POST', query: {}, headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(raw) });
const ours = { secrets: ['120475'] };

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { kind?: string }).kind ?? 'not a ProviderError';
  }
  return 'no error';
};

describe('Strava webhooks', () => {
  it('echoes hub.challenge for our verify token, 401 otherwise; other GETs are not handshakes', () => {
    const get = (query: Record<string, string>): InboundRequest => ({ method: 'GET', query, headers: {}, rawBody: Buffer.alloc(0) });
    const q = { 'hub.mode': 'subscribe', 'hub.challenge': '15f7d1a91c1f40f8a748fd134752feb3', 'hub.verify_token': 'STRAVA' };
    expect(handshake(settings, get(q), 'STRAVA')).toEqual({ status: 200, body: { 'hub.challenge': '15f7d1a91c1f40f8a748fd134752feb3' } });
    expect(handshake(settings, get({ ...q, 'hub.verify_token': 'other' }), 'STRAVA')?.status).toBe(401);
    expect(handshake(settings, get({ ...q, 'hub.mode': 'unsubscribe' }), 'STRAVA')?.status).toBe(401);
    expect(handshake(settings, get({}), 'STRAVA')).toBeUndefined();
  });

  it('turns the documented activity update into a refetch of the last 30 days around event_time', () => {
    const [n] = parseNotification(settings, post(documented), ours);
    expect(n).toEqual({
      providerUserId: '134815',
      resource: 'activities',
      objectId: '1360128428',
      window: { start: new Date((1516126040 - 30 * 86400) * 1000), end: new Date(1516126040 * 1000 + 60_000) },
    });
  });

  it('passes a delete on as a deletion of log_id = activity id, with ids beyond 2^53 intact', () => {
    const raw = JSON.stringify({ ...documented, aspect_type: 'delete', updates: {} }).replace('1360128428', '12345678987654321');
    expect(parseNotification(settings, post(null, raw), ours)).toEqual([{ providerUserId: '134815', resource: 'activities', objectId: '12345678987654321', deleted: true }]);
  });

  it('reads the athlete event with updates.authorized "false" as a deauthorization; other athlete events are ignored', () => {
    const deauth = { ...documented, object_type: 'athlete', object_id: 134815, updates: { authorized: 'false' } };
    expect(parseNotification(settings, post(deauth), ours)).toEqual([
      { providerUserId: '134815', resource: 'activities', deauthorized: true, reason: expect.any(String) },
    ]);
    expect(parseNotification(settings, post({ ...deauth, updates: { authorized: 'true' } }), ours)).toEqual([]);
    expect(kindOf(() => parseNotification(settings, post({ ...deauth, object_id: 99 }), ours))).toBe('bad_request');
  });

  it('refuses an event for another subscription id as bad_signature (the subscription is checked once we hold its id)', () => {
    expect(kindOf(() => parseNotification(settings, post({ ...documented, subscription_id: 999999 }), ours))).toBe('bad_signature');
    expect(parseNotification(settings, post({ ...documented, subscription_id: 999999 }), { secrets: [] })).toHaveLength(1);
  });

  it('answers bad_request for what is not an event', () => {
    for (const body of [['x'], { ...documented, object_type: 'club' }, { ...documented, aspect_type: 'upsert' }, { ...documented, owner_id: undefined }, { ...documented, event_time: 'now' }]) {
      expect(kindOf(() => parseNotification(settings, post(body), ours))).toBe('bad_request');
    }
    expect(kindOf(() => parseNotification(settings, post(null, '{"aspect_type":'), ours))).toBe('bad_request');
  });

  it('wants the app\'s one push subscription', () => {
    expect(wanted()).toEqual([{ key: 'events' }]);
  });
});
