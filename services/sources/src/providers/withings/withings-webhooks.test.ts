import { InboundRequest } from '../provider.port';
import { withingsAdapter } from './withings.adapter';
import { json, scriptedHttp, SETTINGS } from './simulator/withings-unit-fixtures';

const post = (body: string, contentType = 'application/x-www-form-urlencoded'): InboundRequest => ({ method: 'POST', query: {}, headers: { 'content-type': contentType }, rawBody: Buffer.from(body) });

describe('Withings notifications', () => {
  it('parses the documented payload (userid, appli=1, startdate, enddate) into a getmeas fetch', () => {
    const out = withingsAdapter.parseNotification!(SETTINGS, post('userid=12345&appli=1&startdate=1530576000&enddate=1530698753'));
    expect(out).toEqual([{ providerUserId: '12345', resource: 'getmeas', window: { start: new Date(1530576000_000), end: new Date(1530698754_000) } }]);
  });

  it('fans an activity notification out to activity, workouts and intraday; sleep to getsummary', () => {
    expect(withingsAdapter.parseNotification!(SETTINGS, post('userid=7&appli=16&date=2024-03-01')).map((n) => [n.resource, n.window?.start.toISOString()])).toEqual([
      ['getactivity', '2024-02-29T00:00:00.000Z'],
      ['getworkouts', '2024-02-29T00:00:00.000Z'],
      ['getintradayactivity', '2024-02-29T00:00:00.000Z'],
    ]);
    expect(withingsAdapter.parseNotification!(SETTINGS, post('userid=7&appli=44&startdate=1&enddate=2')).map((n) => n.resource)).toEqual(['getsummary']);
    expect(withingsAdapter.parseNotification!(SETTINGS, post('userid=7&appli=46&action=unlink'))).toEqual([]);
  });

  it('reads a multipart/form-data body too', () => {
    const body = '--b1\r\nContent-Disposition: form-data; name="userid"\r\n\r\n42\r\n--b1\r\nContent-Disposition: form-data; name="appli"\r\n\r\n4\r\n--b1--\r\n';
    expect(withingsAdapter.parseNotification!(SETTINGS, post(body, 'multipart/form-data; boundary=b1'))).toEqual([{ providerUserId: '42', resource: 'getmeas' }]);
  });

  it.each([
    ['an empty body', ''],
    ['no userid', 'appli=1&startdate=1&enddate=2'],
    ['a userid that is not a number', 'userid=abc&appli=1'],
    ['no appli', 'userid=1'],
    ['a startdate that is not a timestamp', 'userid=1&appli=1&startdate=yesterday&enddate=2'],
    ['enddate before startdate', 'userid=1&appli=1&startdate=5&enddate=2'],
    ['a bad date', 'userid=1&appli=16&date=2024-02-30'],
    ['JSON', '{"userid":1,"appli":1}'],
  ])('refuses %s as bad_request', (_what, body) => {
    expect(() => withingsAdapter.parseNotification!(SETTINGS, post(body))).toThrow(expect.objectContaining({ kind: 'bad_request' }));
  });

  it('answers the callback check with 200', () => {
    expect(withingsAdapter.handshake!(SETTINGS, { method: 'HEAD', query: {}, headers: {}, rawBody: Buffer.alloc(0) }, '')).toEqual({ status: 200 });
    expect(withingsAdapter.handshake!(SETTINGS, post('x'), '')).toBeUndefined();
  });

  it('subscribes and revokes per appli with the user token; a subscription already gone is fine', async () => {
    const http = scriptedHttp(...[1, 4, 16, 44].map(() => json({ status: 0, body: {} })));
    await withingsAdapter.userSubscriptions!.subscribe(http, SETTINGS, 'tok');
    expect(http.requests.map((r) => [r.url, r.headers?.authorization, r.form?.action, r.form?.appli, r.form?.callbackurl])).toEqual(
      ['1', '4', '16', '44'].map((a) => ['https://wbsapi.withings.net/notify', 'Bearer tok', 'subscribe', a, SETTINGS.webhookUrl]),
    );
    const revoke = scriptedHttp(json({ status: 294, body: {} }), ...[4, 16, 44].map(() => json({ status: 0, body: {} })));
    await withingsAdapter.userSubscriptions!.unsubscribe(revoke, SETTINGS, 'tok');
    expect(revoke.requests.map((r) => r.form?.action)).toEqual(['revoke', 'revoke', 'revoke', 'revoke']);
    await expect(withingsAdapter.userSubscriptions!.unsubscribe(scriptedHttp(json({ status: 401, body: {} })), SETTINGS, 'tok')).rejects.toMatchObject({ kind: 'auth_invalid' });
  });
});
