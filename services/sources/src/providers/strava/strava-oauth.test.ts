/**
 * Strava's OAuth calls against a recording fake ProviderHttp, with the documented token answers
 * (code exchange with the `athlete`, refresh without it) and Strava's Fault bodies.
 */
import { ProviderSettings } from '../provider.port';
import { authorizeUrl, exchangeCode, refresh, revoke } from './strava-oauth';
import { scriptedHttp as fake } from '../../../test/simulators/kit/scripted-http';

const settings: ProviderSettings = {
  clientId: '5',
  clientSecret: 'secret',
  authUrl: 'https://www.strava.com/oauth/authorize',
  tokenUrl: 'https://www.strava.com/oauth/token',
  apiUrl: 'https://www.strava.com/api/v3',
  redirectUri: 'https://wellstream.example/v2/sources/strava/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/strava/webhook',
};


const now = new Date('2019-09-18T00:00:00Z');
const EXCHANGED = `{"token_type":"Bearer","expires_at":1568775134,"expires_in":21600,"refresh_token":"e5n567567","access_token":"a4b945687g",
  "athlete":{"id":1234567890987654321,"username":"marianne_t","resource_state":3,"firstname":"Marianne"}}`;
const REFRESHED = '{"token_type":"Bearer","access_token":"a9b723","expires_at":1568775134,"expires_in":20566,"refresh_token":"b5c569"}';
const DEAD_REFRESH = '{"message":"Bad Request","errors":[{"resource":"RefreshToken","field":"refresh_token","code":"invalid"}]}';

async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return e as { kind: string; details: unknown };
  }
  return { kind: 'no error' };
}

describe('Strava OAuth', () => {
  it('builds the documented authorize URL: comma-delimited scope, approval_prompt, state', () => {
    const url = new URL(authorizeUrl(settings, { state: 'st' }));
    expect(url.origin + url.pathname).toBe('https://www.strava.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '5',
      redirect_uri: settings.redirectUri,
      response_type: 'code',
      approval_prompt: 'force',
      scope: 'activity:read_all',
      state: 'st',
    });
  });

  it('exchanges a code: form credentials, expiry from expires_in, the athlete id with every digit', async () => {
    const http = fake({ body: EXCHANGED });
    const tokens = await exchangeCode(http, settings, { code: 'c0de' }, now);
    expect(http.sent[0]).toEqual({ method: 'POST', url: settings.tokenUrl, form: { client_id: '5', client_secret: 'secret', code: 'c0de', grant_type: 'authorization_code' } });
    expect(tokens).toEqual({ accessToken: 'a4b945687g', refreshToken: 'e5n567567', expiresAt: '2019-09-18T06:00:00.000Z', providerUserId: '1234567890987654321' });
  });

  it('refuses a used code as bad_request, bad client credentials as bad_response', async () => {
    const usedCode = '{"message":"Bad Request","errors":[{"resource":"AuthorizationCode","field":"code","code":"invalid"}]}';
    expect(await kindOf(exchangeCode(fake({ status: 400, body: usedCode }), settings, { code: 'x' }, now))).toMatchObject({ kind: 'bad_request' });
    const badClient = '{"message":"Bad Request","errors":[{"resource":"Application","field":"client_secret","code":"invalid"}]}';
    expect(await kindOf(exchangeCode(fake({ status: 400, body: badClient }), settings, { code: 'x' }, now))).toMatchObject({ kind: 'bad_response' });
  });

  it('refreshes with the rotated refresh token, keeping the athlete id', async () => {
    const http = fake({ body: REFRESHED });
    const next = await refresh(http, settings, { accessToken: 'old', refreshToken: 'e5n567567', expiresAt: now.toISOString(), providerUserId: '42' }, now);
    expect(http.sent[0].form).toEqual({ client_id: '5', client_secret: 'secret', grant_type: 'refresh_token', refresh_token: 'e5n567567' });
    expect(next).toEqual({ accessToken: 'a9b723', refreshToken: 'b5c569', expiresAt: new Date(now.getTime() + 20566_000).toISOString(), providerUserId: '42' });
  });

  it('reads a refresh token Strava names as invalid as auth_revoked; a garbled 400 does not expire the connection', async () => {
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString() };
    expect(await kindOf(refresh(fake({ status: 400, body: DEAD_REFRESH }), settings, tokens, now))).toMatchObject({ kind: 'auth_revoked', details: { providerCode: 'RefreshToken:refresh_token:invalid' } });
    expect(await kindOf(refresh(fake({ status: 400, body: '<html>' }), settings, tokens, now))).toMatchObject({ kind: 'bad_response' });
    expect(await kindOf(refresh(fake({ status: 503 }), settings, tokens, now))).toMatchObject({ kind: 'temporary' });
    expect(await kindOf(refresh(fake({ body: '{"access_token":"x"}' }), settings, tokens, now))).toMatchObject({ kind: 'bad_response' });
  });

  it('deauthorizes; an expired access token is refreshed once first, a dead grant is already gone', async () => {
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString() };
    const ok = fake({ body: '{"access_token":"a"}' });
    await revoke(ok, settings, tokens);
    expect(ok.sent[0]).toMatchObject({ method: 'POST', url: 'https://www.strava.com/oauth/deauthorize', form: { access_token: 'a' } });
    const expired = fake({ status: 401 }, { body: REFRESHED }, { body: '{}' });
    await revoke(expired, settings, tokens);
    expect(expired.sent.map((r) => r.form?.access_token ?? r.form?.grant_type)).toEqual(['a', 'refresh_token', 'a9b723']);
    const dead = fake({ status: 401 }, { status: 400, body: DEAD_REFRESH });
    await expect(revoke(dead, settings, tokens)).resolves.toBeUndefined();
  });
});
