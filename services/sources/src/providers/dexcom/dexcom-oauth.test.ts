import { ProviderError } from '../provider.port';
import { dexcomAdapter } from './dexcom.adapter';
import { fakeHttp, json, settings } from './simulator/dexcom-unit-fixtures';

const now = new Date('2025-02-06T10:00:00Z');
const kindOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (e instanceof ProviderError ? e.kind : `not a ProviderError: ${String(e)}`));

describe('Dexcom OAuth', () => {
  it('builds the documented login URL (client_id, redirect_uri, response_type=code, scope=offline_access, state)', () => {
    const url = new URL(dexcomAdapter.authorizeUrl(settings, { state: 's-1' }));
    expect(url.origin + url.pathname).toBe('https://sandbox-api.dexcom.com/v2/oauth2/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-1',
      redirect_uri: settings.redirectUri,
      response_type: 'code',
      scope: 'offline_access',
      state: 's-1',
    });
    expect(dexcomAdapter.pkce).toBe(false);
  });

  it('exchanges a code with a form POST carrying the client credentials', async () => {
    const http = fakeHttp(json({ access_token: 'at-1', expires_in: 7200, token_type: 'Bearer', refresh_token: 'rt-1' }));
    const tokens = await dexcomAdapter.exchangeCode(http, settings, { code: 'code-1' }, now);
    expect(tokens).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: '2025-02-06T12:00:00.000Z', scope: 'offline_access' });
    expect(http.requests[0]).toEqual({
      method: 'POST',
      url: settings.tokenUrl,
      form: { client_id: 'client-1', client_secret: 'secret-1', code: 'code-1', grant_type: 'authorization_code', redirect_uri: settings.redirectUri },
    });
  });

  it('refreshes with grant_type=refresh_token and keeps the rotated refresh token', async () => {
    const http = fakeHttp(json({ access_token: 'at-2', expires_in: 7200, token_type: 'Bearer', refresh_token: 'rt-2' }));
    const tokens = await dexcomAdapter.refresh(http, settings, { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: now.toISOString(), providerUserId: 'u' }, now);
    expect(tokens.refreshToken).toBe('rt-2');
    expect(tokens.accessToken).toBe('at-2');
    expect(tokens.providerUserId).toBe('u');
    expect(http.requests[0].form).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'rt-1', client_id: 'client-1', client_secret: 'secret-1' });
  });

  it('maps token-endpoint failures: invalid_grant → auth_revoked, invalid_client → bad_response, 429, 5xx, garbage', async () => {
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: now.toISOString() };
    const refreshWith = (answer: Parameters<typeof fakeHttp>[0]) => kindOf(dexcomAdapter.refresh(fakeHttp(answer), settings, tokens, now));
    expect(await refreshWith(json({ error: 'invalid_grant', error_description: 'used' }, 400))).toBe('auth_revoked');
    expect(await refreshWith(json({ error: 'invalid_grant' }, 401))).toBe('auth_revoked');
    expect(await refreshWith(json({ error: 'invalid_client' }, 401))).toBe('bad_response');
    expect(await refreshWith({ status: 429, headers: { 'retry-after': '30' }, body: '' })).toBe('rate_limited');
    expect(await refreshWith({ status: 503, body: '<html>down</html>' })).toBe('temporary');
    expect(await refreshWith({ status: 200, body: '<html>not json' })).toBe('bad_response');
    expect(await refreshWith(json({ token_type: 'Bearer' }))).toBe('bad_response');
    expect(await refreshWith(json({ access_token: 'x', expires_in: 'soon' }))).toBe('bad_response');
    expect(await refreshWith(json([1, 2]))).toBe('bad_response');
    expect(await kindOf(dexcomAdapter.refresh(fakeHttp(), settings, { accessToken: 'a', expiresAt: now.toISOString() }, now))).toBe('auth_revoked');
  });

  it('reads the provider user id from /dataRange', async () => {
    const http = fakeHttp(json({ recordType: 'dataRange', recordVersion: '3.0', userId: 'user-dexcom-1', egvs: {} }));
    expect(await dexcomAdapter.fetchProviderUserId!(http, settings, 'at-1')).toBe('user-dexcom-1');
    expect(http.requests[0]).toMatchObject({ method: 'GET', url: 'https://sandbox-api.dexcom.com/v3/users/self/dataRange', headers: { authorization: 'Bearer at-1' } });
    expect(await kindOf(dexcomAdapter.fetchProviderUserId!(fakeHttp(json({})), settings, 'at-1'))).toBe('bad_response');
  });

  it('has no webhook parts and no revoke (Dexcom documents neither)', () => {
    expect(dexcomAdapter.handshake).toBeUndefined();
    expect(dexcomAdapter.parseNotification).toBeUndefined();
    expect(dexcomAdapter.revoke).toBeUndefined();
    expect(dexcomAdapter.appSubscriptions).toBeUndefined();
    expect(dexcomAdapter.userSubscriptions).toBeUndefined();
  });
});
