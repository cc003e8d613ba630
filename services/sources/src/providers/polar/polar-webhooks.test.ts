/** Polar's webhook: the documented payloads signed with the webhook secret, the PING, the subscription calls. */
import { isProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';
import { polarSignature } from './polar-webhooks';
import { polarAdapter } from './polar.adapter';

const settings = { clientId: 'id', clientSecret: 'cs', authUrl: 'a', tokenUrl: 't', apiUrl: 'https://www.polaraccesslink.com', redirectUri: 'r', webhookUrl: 'https://ws.example/v2/sources/polar/webhook' } as ProviderSettings;
const SECRET = 'abe1f3ae-fd33-11e8-8eb2-f2801f1b9fd1';

function inbound(body: unknown, event: string, secret: string | null = SECRET) {
  const raw = Buffer.from(JSON.stringify(body));
  return { method: 'POST' as const, query: {}, headers: { 'polar-webhook-event': event, ...(secret ? { 'polar-webhook-signature': polarSignature(secret, raw) } : {}) }, rawBody: raw };
}

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : String(e);
  }
  return 'no error';
};

const parse = (req: ReturnType<typeof inbound>, secrets = ['older-secret', SECRET]) => polarAdapter.parseNotification!(settings, req, { secrets });

describe('Polar webhook notifications', () => {
  it('answers the PING without a secret', () => {
    expect(parse(inbound({ timestamp: '2019-01-11T08:25:10.02Z', event: 'PING' }, 'PING', 'unknown-yet'), [])).toEqual([]);
  });

  it('parses an EXERCISE (documented payload) signed with any held secret', () => {
    const [n] = parse(inbound({ event: 'EXERCISE', user_id: 475, entity_id: 'aQlC83', timestamp: '2018-05-15T14:22:24Z', url: 'https://www.polaraccesslink.com/v3/exercises/aQlC83' }, 'EXERCISE'));
    expect(n).toMatchObject({ providerUserId: '475', resource: 'exercises', objectId: 'aQlC83' });
    expect(n.window!.end.getTime() - n.window!.start.getTime()).toBe(30 * 86_400_000);
  });

  it('gives day events a window around their day', () => {
    const sleep = parse(inbound({ event: 'SLEEP', user_id: 475, date: '2019-12-31', timestamp: '2018-05-15T14:22:24Z', url: 'https://www.polaraccesslink.com/v3/users/sleep/2019-12-31' }, 'SLEEP'));
    expect(sleep).toEqual([{ providerUserId: '475', resource: 'sleep', window: { start: new Date('2019-12-30T00:00:00Z'), end: new Date('2020-01-02T00:00:00Z') } }]);
    expect(parse(inbound({ event: 'CONTINUOUS_HEART_RATE', user_id: 475, date: '2022-09-30' }, 'CONTINUOUS_HEART_RATE'))[0].resource).toBe('continuous_heart_rate');
    expect(parse(inbound({ event: 'ACTIVITY_SUMMARY', user_id: 475, date: '2022-09-30' }, 'ACTIVITY_SUMMARY'))[0].resource).toBe('activities');
    // The documented example date 2022-09-31 does not exist: no window, the service picks a recent one.
    expect(parse(inbound({ event: 'ACTIVITY_SUMMARY', user_id: 475, date: '2022-09-31' }, 'ACTIVITY_SUMMARY'))[0].window).toBeUndefined();
    expect(parse(inbound({ event: 'SLEEP_WISE_ALERTNESS', user_id: 475, from: '2022-09-30', to: '2022-10-02' }, 'SLEEP_WISE_ALERTNESS'))).toEqual([]);
  });

  it('refuses a wrong, missing or unverifiable signature and malformed bodies', () => {
    const body = { event: 'EXERCISE', user_id: 475, entity_id: 'aQlC83' };
    expect(kindOf(() => parse(inbound(body, 'EXERCISE', 'not-the-secret')))).toBe('bad_signature');
    expect(kindOf(() => parse(inbound(body, 'EXERCISE', null)))).toBe('bad_signature');
    expect(kindOf(() => parse(inbound(body, 'EXERCISE'), []))).toBe('bad_signature');
    expect(kindOf(() => parse(inbound({ event: 'EXERCISE' }, 'EXERCISE')))).toBe('bad_request');
    expect(kindOf(() => parse(inbound({ ...body, event: 'SLEEP' }, 'EXERCISE')))).toBe('bad_request');
    expect(kindOf(() => parse(inbound({ ...body, event: 'NEW_THING' }, 'NEW_THING')))).toBe('bad_request');
  });
});

function scripted(...answers: Partial<ProviderResponse>[]) {
  const sent: ProviderRequest[] = [];
  const http: ProviderHttp = {
    async send(req) {
      sent.push(req);
      const a = answers.shift() ?? { status: 500 };
      return { status: a.status ?? 200, headers: a.headers ?? {}, body: a.body ?? '' };
    },
  };
  return { http, sent };
}

describe('Polar webhook subscription', () => {
  const subs = polarAdapter.appSubscriptions!;
  const created = { data: { id: 'abdf33', events: ['ACTIVITY_SUMMARY', 'CONTINUOUS_HEART_RATE', 'EXERCISE', 'SLEEP'], url: settings.webhookUrl, signature_secret_key: SECRET } };

  it('wants one webhook for four events and returns its secret once created', async () => {
    expect(subs.wanted()).toEqual([{ key: 'ACTIVITY_SUMMARY,CONTINUOUS_HEART_RATE,EXERCISE,SLEEP' }]);
    const { http, sent } = scripted({ status: 201, body: JSON.stringify(created) });
    expect(await subs.create(http, settings, subs.wanted()[0], 'unused')).toEqual({ id: 'abdf33', key: subs.wanted()[0].key, secret: SECRET });
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'https://www.polaraccesslink.com/v3/webhooks', json: { events: ['ACTIVITY_SUMMARY', 'CONTINUOUS_HEART_RATE', 'EXERCISE', 'SLEEP'], url: settings.webhookUrl } });
    expect(sent[0].headers!.authorization).toMatch(/^Basic /);
  });

  it('lists ours only, marks a deactivated one, and replaces ours on 409', async () => {
    const info = { data: [{ id: 'abdf33', events: ['EXERCISE'], url: settings.webhookUrl, active: false }] };
    expect(await subs.list(scripted({ body: JSON.stringify(info) }).http, settings)).toEqual([{ id: 'abdf33', key: 'EXERCISE:inactive' }]);
    expect(await subs.list(scripted({ body: JSON.stringify({ data: [{ ...info.data[0], url: 'https://other.example/hook' }] }) }).http, settings)).toEqual([]);
    const { http, sent } = scripted({ status: 409 }, { body: JSON.stringify(info) }, { status: 204 }, { status: 201, body: JSON.stringify(created) });
    expect((await subs.create(http, settings, subs.wanted()[0], '')).secret).toBe(SECRET);
    expect(sent.map((r) => r.method)).toEqual(['POST', 'GET', 'DELETE', 'POST']);
    const other = scripted({ status: 409 }, { body: JSON.stringify({ data: [{ ...info.data[0], url: 'https://other.example/hook' }] }) });
    await expect(subs.create(other.http, settings, subs.wanted()[0], '')).rejects.toMatchObject({ kind: 'bad_response', details: { status: 409 } });
  });

  it('removes (404 is already gone) and re-activates', async () => {
    await expect(subs.remove(scripted({ status: 404 }).http, settings, { id: 'x', key: 'k' })).resolves.toBeUndefined();
    const { http, sent } = scripted({ status: 200 });
    expect(await subs.renew(http, settings, { id: 'abdf33', key: 'EXERCISE:inactive' })).toEqual({ id: 'abdf33', key: 'EXERCISE' });
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'https://www.polaraccesslink.com/v3/webhooks/activate' });
  });
});
