/**
 * Garmin's unsigned notifications: pings as the Ping Service documents them (`{"<summary type>":
 * [{"userId", "callbackURL"}]}`, the callbackURL on apis.garmin.com with the upload range and the
 * pull token), deregistrations, permission changes, and what is refused: a callbackURL anywhere but
 * Garmin's pull path (401, nothing fetched), a push, a body that is not the documented shape (400).
 */
import { InboundRequest, ProviderSettings } from '../provider.port';
import { parseNotification } from './garmin-webhooks';

const settings = { clientId: 'consumer-key', apiUrl: 'https://apis.garmin.com' } as ProviderSettings;
const post = (body: unknown, headers: Record<string, string> = {}): InboundRequest => ({ method: 'POST', query: {}, headers, rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) });
const callback = (type: string, origin = 'https://apis.garmin.com') => `${origin}/wellness-api/rest/${type}?uploadStartTimeInSeconds=1444937651&uploadEndTimeInSeconds=1444937902&token=XXXXX`;
const userId = '4aacafe82427c251df9c9592d0c06768';

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { kind?: string }).kind ?? 'not a ProviderError';
  }
  return 'no error';
};

describe('Garmin notifications', () => {
  it('turns each ping entry of a summary type we read into a fetch of exactly its callbackURL', () => {
    const body = { dailies: [{ userId, callbackURL: callback('dailies') }], activities: [{ userId, callbackURL: callback('activities') }, { userId: 'b2', callbackURL: callback('activities') }] };
    expect(parseNotification(settings, post(body))).toEqual([
      { providerUserId: userId, resource: 'dailies', objectId: callback('dailies') },
      { providerUserId: userId, resource: 'activities', objectId: callback('activities') },
      { providerUserId: 'b2', resource: 'activities', objectId: callback('activities') },
    ]);
  });

  it('checks but does not fetch the summary types it does not read (respiration, hrv, stress details …)', () => {
    expect(parseNotification(settings, post({ hrv: [{ userId, callbackURL: callback('hrv') }] }))).toEqual([]);
    expect(kindOf(() => parseNotification(settings, post({ hrv: [{ userId, callbackURL: callback('hrv', 'https://evil.example') }] })))).toBe('bad_signature');
  });

  it('refuses as a forgery a callbackURL off Garmin\'s API origin or its pull path, whole delivery', () => {
    const refused = [
      callback('dailies', 'https://evil.example'),
      callback('dailies', 'http://apis.garmin.com'),
      callback('dailies', 'https://apis.garmin.com:8443'),
      callback('dailies', 'https://user:pw@apis.garmin.com'),
      callback('dailies', 'https://apis.garmin.com.evil.example'),
      callback('sleeps'),
      'https://apis.garmin.com/wellness-api/rest/user/registration?uploadStartTimeInSeconds=1&uploadEndTimeInSeconds=2',
      'https://apis.garmin.com/wellness-api/rest/dailies/../user/id?uploadStartTimeInSeconds=1&uploadEndTimeInSeconds=2',
      'not a url',
    ];
    for (const callbackURL of refused) expect([callbackURL, kindOf(() => parseNotification(settings, post({ dailies: [{ userId, callbackURL }] })))]).toEqual([callbackURL, 'bad_signature']);
    const mixed = { activities: [{ userId, callbackURL: callback('activities') }], dailies: [{ userId, callbackURL: callback('dailies', 'https://evil.example') }] };
    expect(kindOf(() => parseNotification(settings, post(mixed)))).toBe('bad_signature');
  });

  it('refuses a ping without a readable upload range and bodies of another shape (400)', () => {
    const bad = [
      { dailies: [{ userId, callbackURL: 'https://apis.garmin.com/wellness-api/rest/dailies?token=x' }] },
      { dailies: [{ userId, callbackURL: 42 }] },
      { dailies: [{ callbackURL: callback('dailies') }] },
      { dailies: [{ userId: '../x', callbackURL: callback('dailies') }] },
      { dailies: {} },
      [1],
      'null',
      '{not json',
    ];
    for (const body of bad) expect(kindOf(() => parseNotification(settings, post(body)))).toBe('bad_request');
  });

  it('reads a deregistration as "access withdrawn" (acted on once Garmin refuses the token) and a permission change as "ask Garmin"', () => {
    expect(parseNotification(settings, post({ deregistrations: [{ userId, userAccessToken: 'x' }] }))).toEqual([{ providerUserId: userId, resource: 'deregistration', deauthorized: true, reason: expect.any(String) }]);
    const change = { userPermissionsChange: [{ userId, summaryId: 'x', permissions: ['ACTIVITY_EXPORT'], changeTimeInSeconds: 1600000000 }] };
    // The body's list is not taken: the service asks user/permissions with the user's token.
    expect(parseNotification(settings, post(change))).toEqual([{ providerUserId: userId, resource: 'permissions', permissionsChanged: true }]);
    expect(kindOf(() => parseNotification(settings, post({ userPermissionsChange: [{ userId, permissions: 'ALL' }] })))).toBe('bad_request');
    expect(kindOf(() => parseNotification(settings, post({ userPermissionsChange: [{ permissions: [] }] })))).toBe('bad_request');
  });

  it('takes a push (summaries inline) as a notice only: a pull of the last 24 hours of uploads on our API origin, nothing of its body', () => {
    const before = Math.floor(Date.now() / 1000);
    const push = { activities: [{ userId, userAccessToken: 'theirs', summaryId: 'x', activityType: 'RUNNING', startTimeInSeconds: 1, durationInSeconds: 60, distanceInMeters: 99999 }, { userId, summaryId: 'y' }], hrv: [{ userId, summaryId: 'z' }] };
    const out = parseNotification(settings, post(push));
    expect(out).toHaveLength(1);
    expect(out[0]).toEqual({ providerUserId: userId, resource: 'activities', objectId: expect.any(String) });
    const url = new URL(out[0].objectId!);
    expect(url.origin + url.pathname).toBe('https://apis.garmin.com/wellness-api/rest/activities');
    expect([...url.searchParams.keys()].sort()).toEqual(['uploadEndTimeInSeconds', 'uploadStartTimeInSeconds']);
    const start = Number(url.searchParams.get('uploadStartTimeInSeconds'));
    const end = Number(url.searchParams.get('uploadEndTimeInSeconds'));
    expect(end).toBeGreaterThanOrEqual(before);
    expect(end - start).toBe(86_400);
    // One pull per user and type, however many summaries the push carries.
    expect(parseNotification(settings, post({ dailies: [{ userId }, { userId }, { userId: 'b2' }] })).map((n) => n.providerUserId)).toEqual([userId, 'b2']);
  });

  it('refuses a delivery that names another application\'s client id', () => {
    const body = { dailies: [{ userId, callbackURL: callback('dailies') }] };
    expect(kindOf(() => parseNotification(settings, post(body, { 'garmin-client-id': 'someone-else' })))).toBe('bad_signature');
    expect(parseNotification(settings, post(body, { 'garmin-client-id': 'consumer-key' }))).toHaveLength(1);
  });
});
