/**
 * The OAuth calls and the status → ProviderError mapping, over a scripted ProviderHttp that answers
 * as Oura documents (token answer `{token_type, access_token, expires_in, refresh_token}`).
 */
import { isProviderError, ProviderResponse, ProviderSettings } from '../provider.port';
import { ouraAdapter } from './oura.adapter';
import { scriptedHttp as scripted } from '../../../test/simulators/kit/scripted-http';

const settings: ProviderSettings = {
  clientId: 'client',
  clientSecret: 'secret',
  authUrl: 'https://cloud.ouraring.com/oauth/authorize',
  tokenUrl: 'https://api.ouraring.com/oauth/token',
  apiUrl: 'https://api.ouraring.com',
  redirectUri: 'https://wellstream.example/v2/sources/oura/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/oura/webhook',
};


async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return isProviderError(e) ? { kind: e.kind, ...e.details } : { kind: String(e) };
  }
  return { kind: 'no error' };
}

const now = new Date('2024-05-01T12:00:00Z');
const tokenAnswer = JSON.stringify({ token_type: 'bearer', access_token: 'at-1', expires_in: 86400, refresh_token: 'rt-1' });

describe('Oura OAuth', () => {
  it('builds the documented authorize URL without PKCE', () => {
    const url = new URL(ouraAdapter.authorizeUrl(settings, { state: 's1' }));
    expect(url.origin + url.pathname).toBe('https://cloud.ouraring.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'client',
      redirect_uri: settings.redirectUri,
      state: 's1',
      scope: 'daily heartrate workout',
    });
    expect(ouraAdapter.pkce).toBe(false);
  });

  it('exchanges a code with the client credentials in the form', async () => {
    const http = scripted({ body: tokenAnswer });
    const tokens = await ouraAdapter.exchangeCode(http, settings, { code: 'c1' }, now);
    expect(tokens).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: '2024-05-02T12:00:00.000Z' });
    expect(http.sent[0].form).toEqual({ grant_type: 'authorization_code', code: 'c1', redirect_uri: settings.redirectUri, client_id: 'client', client_secret: 'secret' });
  });

  it('maps refresh failures: invalid_grant is auth_revoked, 5xx temporary, 429 rate_limited, garbage bad_response', async () => {
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString(), providerUserId: 'u1' };
    const refresh = (a: Partial<ProviderResponse>) => kindOf(ouraAdapter.refresh(scripted(a), settings, tokens, now));
    expect(await refresh({ status: 400, body: '{"error":"invalid_grant"}' })).toMatchObject({ kind: 'auth_revoked', providerCode: 'invalid_grant' });
    expect(await refresh({ status: 503, body: 'down' })).toMatchObject({ kind: 'temporary' });
    expect(await refresh({ status: 429, headers: { 'retry-after': '17' } })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 17_000 });
    expect(await refresh({ status: 200, body: '<html>' })).toMatchObject({ kind: 'bad_response' });
    expect(await refresh({ status: 200, body: '{"access_token":7}' })).toMatchObject({ kind: 'bad_response' });
    const renewed = await ouraAdapter.refresh(scripted({ body: tokenAnswer }), settings, tokens, now);
    expect(renewed).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1', providerUserId: 'u1' });
  });

  it('reads the user id from personal_info and maps data statuses', async () => {
    expect(await ouraAdapter.fetchProviderUserId!(scripted({ body: '{"id":"8f9a5221","age":31}' }), settings, 'a')).toBe('8f9a5221');
    const fetch = (a: Partial<ProviderResponse>) =>
      kindOf(ouraAdapter.fetchWindow(scripted(a), settings, 'a', 'sleep', { start: now, end: new Date(now.getTime() + 86_400_000) }, { userTimezone: null }));
    expect(await fetch({ status: 401 })).toMatchObject({ kind: 'auth_invalid' });
    expect(await fetch({ status: 403 })).toMatchObject({ kind: 'consent_missing' });
    expect(await fetch({ status: 429 })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 300_000 });
    expect(await fetch({ status: 502 })).toMatchObject({ kind: 'temporary' });
    expect(await fetch({ body: '{"data":"nope"}' })).toMatchObject({ kind: 'bad_response' });
    expect(await fetch({ body: '{"data":[null]}' })).toMatchObject({ kind: 'bad_response' });
  });

  it('revokes with the access token as a query parameter on the token host', async () => {
    const http = scripted({ status: 200 });
    await ouraAdapter.revoke!(http, settings, { accessToken: 'a b', expiresAt: now.toISOString() });
    expect(http.sent[0]).toMatchObject({ method: 'GET', url: 'https://api.ouraring.com/oauth/revoke?access_token=a+b' });
  });
});
