/** Polar's OAuth, registration and de-registration against a scripted ProviderHttp. */
import { isProviderError, ProviderHttp, ProviderRequest, ProviderResponse, ProviderSettings } from '../provider.port';
import { retryAfterMs } from './polar-http';
import { polarAdapter } from './polar.adapter';

const settings: ProviderSettings = {
  clientId: '12345', clientSecret: 'verySecret', authUrl: 'https://flow.polar.com/oauth2/authorization', tokenUrl: 'https://polarremote.com/v2/oauth2/token',
  apiUrl: 'https://www.polaraccesslink.com', redirectUri: 'https://ws.example/v2/sources/polar/callback', webhookUrl: 'https://ws.example/v2/sources/polar/webhook',
};

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

async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return isProviderError(e) ? { kind: e.kind, ...e.details } : { kind: String(e) };
  }
  return { kind: 'no error' };
}

const tokens = { accessToken: 'at', expiresAt: '2030-01-01T00:00:00.000Z', providerUserId: '10579' };

describe('Polar OAuth', () => {
  it('builds the authorize URL with the accesslink.read_all scope', () => {
    const url = new URL(polarAdapter.authorizeUrl(settings, { state: 's1' }));
    expect(url.origin + url.pathname).toBe('https://flow.polar.com/oauth2/authorization');
    expect(Object.fromEntries(url.searchParams)).toEqual({ response_type: 'code', client_id: '12345', redirect_uri: settings.redirectUri, state: 's1', scope: 'accesslink.read_all' });
  });

  it('exchanges a code with HTTP Basic and reads expires_in and x_user_id (documented example answer)', async () => {
    const { http, sent } = scripted({ body: '{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"bearer","expires_in":31535999,"x_user_id":10579}' });
    const now = new Date('2024-01-01T00:00:00Z');
    const t = await polarAdapter.exchangeCode(http, settings, { code: 'c' }, now);
    expect(t).toEqual({ accessToken: '2YotnFZFEjr1zCsicMWpAA', expiresAt: new Date(now.getTime() + 31535999_000).toISOString(), scope: 'accesslink.read_all', providerUserId: '10579' });
    expect(t.refreshToken).toBeUndefined();
    expect(sent[0].headers!.authorization).toBe(`Basic ${Buffer.from('12345:verySecret').toString('base64')}`);
    expect(sent[0].form).toEqual({ grant_type: 'authorization_code', code: 'c', redirect_uri: settings.redirectUri });
  });

  it('maps token errors: invalid_grant is bad_request, invalid_client bad_response, 5xx temporary, garbage bad_response', async () => {
    expect(await kindOf(polarAdapter.exchangeCode(scripted({ status: 400, body: '{"error":"invalid_grant"}' }).http, settings, { code: 'c' }, new Date()))).toMatchObject({ kind: 'bad_request', providerCode: 'invalid_grant' });
    expect(await kindOf(polarAdapter.exchangeCode(scripted({ status: 400, body: '{"error":"invalid_client"}' }).http, settings, { code: 'c' }, new Date()))).toMatchObject({ kind: 'bad_response' });
    expect(await kindOf(polarAdapter.exchangeCode(scripted({ status: 502 }).http, settings, { code: 'c' }, new Date()))).toMatchObject({ kind: 'temporary' });
    expect(await kindOf(polarAdapter.exchangeCode(scripted({ body: '<html>' }).http, settings, { code: 'c' }, new Date()))).toMatchObject({ kind: 'bad_response' });
    expect(await kindOf(polarAdapter.exchangeCode(scripted({ body: '{"access_token":"a","expires_in":5}' }).http, settings, { code: 'c' }, new Date()))).toMatchObject({ kind: 'bad_response' });
  });

  it('has no refresh: auth_revoked without calling Polar', async () => {
    const { http, sent } = scripted();
    expect(await kindOf(polarAdapter.refresh(http, settings, tokens, new Date()))).toMatchObject({ kind: 'auth_revoked' });
    expect(sent).toHaveLength(0);
  });

  it('registers the user after connect: 200 and 409 succeed, 403 is consent_missing', async () => {
    const ok = scripted({ body: JSON.stringify({ 'polar-user-id': 10579, 'member-id': 'wellstream-10579', 'registration-date': '2011-10-14T12:50:37.000Z' }) });
    await polarAdapter.afterConnect!(ok.http, settings, tokens);
    expect(ok.sent[0]).toMatchObject({ method: 'POST', url: 'https://www.polaraccesslink.com/v3/users', json: { 'member-id': 'wellstream-10579' } });
    expect(ok.sent[0].headers!.authorization).toBe('Bearer at');
    await expect(polarAdapter.afterConnect!(scripted({ status: 409 }).http, settings, tokens)).resolves.toBeUndefined();
    expect(await kindOf(polarAdapter.afterConnect!(scripted({ status: 403 }).http, settings, tokens))).toMatchObject({ kind: 'consent_missing', status: 403 });
    expect(await kindOf(polarAdapter.afterConnect!(scripted({ body: '{"polar-user-id": 1}' }).http, settings, tokens))).toMatchObject({ kind: 'bad_response' });
  });

  it('revokes by de-registering the user; an already refused token or gone user is fine', async () => {
    const { http, sent } = scripted({ status: 204 });
    await polarAdapter.revoke!(http, settings, tokens);
    expect(sent[0]).toMatchObject({ method: 'DELETE', url: 'https://www.polaraccesslink.com/v3/users/10579' });
    await expect(polarAdapter.revoke!(scripted({ status: 401 }).http, settings, tokens)).resolves.toBeUndefined();
    expect(await kindOf(polarAdapter.revoke!(scripted({ status: 503 }).http, settings, tokens))).toMatchObject({ kind: 'temporary' });
  });

  it('waits for the exhausted rate-limit window', () => {
    expect(retryAfterMs({ 'ratelimit-usage': '520, 800', 'ratelimit-limit': '520, 5100', 'ratelimit-reset': '300, 80000' })).toBe(300_000);
    expect(retryAfterMs({ 'ratelimit-usage': '100, 5100', 'ratelimit-limit': '520, 5100', 'ratelimit-reset': '300, 80000' })).toBe(80_000_000);
    expect(retryAfterMs({ 'retry-after': '7' })).toBe(7000);
    expect(retryAfterMs({})).toBe(15 * 60_000);
  });
});
