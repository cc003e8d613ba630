import { failureOf, retryAfterMs } from './strava-http';

const at = Date.parse('2024-03-05T10:07:30Z');
const res = (status: number, body = '', headers: Record<string, string> = {}) => ({ status, body, headers });

describe('Strava HTTP answers', () => {
  it('waits until the next quarter hour after a 429, or midnight UTC once a daily limit is spent', () => {
    expect(retryAfterMs({ 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '201,900' }, at)).toBe(7.5 * 60_000);
    expect(retryAfterMs({}, at)).toBe(7.5 * 60_000);
    expect(retryAfterMs({ 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '20,900', 'x-readratelimit-limit': '100,1000', 'x-readratelimit-usage': '50,1000' }, at)).toBe(
      Date.parse('2024-03-06T00:00:00Z') - at,
    );
    expect(retryAfterMs({ 'retry-after': '12' }, at)).toBe(12_000);
  });

  it('sorts statuses into error kinds, reading Strava\'s Fault body', () => {
    const rate = '{"message":"Rate Limit Exceeded","errors":[{"resource":"Application","field":"rate limit","code":"exceeded"}]}';
    expect(failureOf(res(200), 'x', at)).toBeUndefined();
    expect(failureOf(res(401, '{"message":"Authorization Error","errors":[{"resource":"Athlete","field":"access_token","code":"invalid"}]}'), 'x', at)).toMatchObject({
      kind: 'auth_invalid',
      details: { status: 401, providerCode: 'Athlete:access_token:invalid' },
    });
    expect(failureOf(res(401, '{"message":"Authorization Error","errors":[{"resource":"AccessToken","field":"activity:read_permission","code":"missing"}]}'), 'x', at)?.kind).toBe('consent_missing');
    expect(failureOf(res(429, rate, { 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '200,400' }), 'x', at)).toMatchObject({ kind: 'rate_limited', details: { retryAfterMs: 450_000 } });
    expect(failureOf(res(502, '<html>'), 'x', at)?.kind).toBe('temporary');
    expect(failureOf(res(404, '{"message":"Record Not Found","errors":[]}'), 'x', at)?.kind).toBe('bad_response');
  });
});
