import { createHmac } from 'node:crypto';
import { withingsAdapter } from './withings.adapter';
import { statusFamily } from './withings-status';
import { json, scriptedHttp, SETTINGS } from './simulator/withings-unit-fixtures';

// The token answer of the API reference (OAuth 2.0 - Request Access and Refresh Tokens, examples).
const TOKEN_BODY = {
  userid: 363,
  access_token: 'a075f8c14fb8df40b08ebc8508533dc332a6910a',
  refresh_token: 'f631236f02b991810feb774765b6ae8e6c6839ca',
  expires_in: 10800,
  scope: 'user.info,user.metrics',
  csrf_token: 'PACnnxwHTaBQOzF7bQqwFUUotIuvtzSM',
  token_type: 'Bearer',
};
const NOW = new Date('2024-03-01T10:00:00Z');

describe('Withings OAuth', () => {
  it('builds the authorize2 URL with comma-separated scopes and no PKCE', () => {
    const url = new URL(withingsAdapter.authorizeUrl(SETTINGS, { state: 's1' }));
    expect(url.origin + url.pathname).toBe('https://account.withings.com/oauth2_user/authorize2');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'client-id',
      scope: 'user.info,user.metrics,user.activity',
      redirect_uri: SETTINGS.redirectUri,
      state: 's1',
    });
    expect(withingsAdapter.pkce).toBe(false);
  });

  it('exchanges a code with action=requesttoken and keeps the userid', async () => {
    const http = scriptedHttp(json({ status: 0, body: TOKEN_BODY }));
    const tokens = await withingsAdapter.exchangeCode(http, SETTINGS, { code: 'mtwsikawoqleuroqcluggflrqilrnqbgqvqeuhhh' }, NOW);
    expect(http.requests[0]).toMatchObject({
      method: 'POST',
      url: 'https://wbsapi.withings.net/v2/oauth2',
      form: { action: 'requesttoken', grant_type: 'authorization_code', client_id: 'client-id', client_secret: 'client-secret', code: 'mtwsikawoqleuroqcluggflrqilrnqbgqvqeuhhh', redirect_uri: SETTINGS.redirectUri },
    });
    expect(tokens).toEqual({
      accessToken: TOKEN_BODY.access_token,
      refreshToken: TOKEN_BODY.refresh_token,
      expiresAt: '2024-03-01T13:00:00.000Z',
      scope: 'user.info,user.metrics',
      providerUserId: '363',
    });
  });

  it('refreshes with the current refresh token and takes the rotated one', async () => {
    const http = scriptedHttp(json({ status: 0, body: { ...TOKEN_BODY, userid: '363', refresh_token: 'rotated' } }));
    const tokens = await withingsAdapter.refresh(http, SETTINGS, { accessToken: 'a', refreshToken: 'old', expiresAt: NOW.toISOString(), providerUserId: '363' }, NOW);
    expect(http.requests[0].form).toMatchObject({ action: 'requesttoken', grant_type: 'refresh_token', refresh_token: 'old' });
    expect(tokens.refreshToken).toBe('rotated');
    expect(tokens.providerUserId).toBe('363');
  });

  it.each([
    [503, 'Invalid Params: invalid refresh_token'],
    [401, 'invalid_token'],
    [100, 'Authentication failed'],
  ])('a refresh answered status %s in a 200 is auth_revoked', async (status, error) => {
    const http = scriptedHttp(json({ status, body: {}, error }));
    await expect(withingsAdapter.refresh(http, SETTINGS, { accessToken: 'a', refreshToken: 'r', expiresAt: '' }, NOW)).rejects.toMatchObject({ kind: 'auth_revoked', details: { providerCode: status } });
  });

  it('a refresh that meets HTTP 503 or status 601 is retried later, never revoked', async () => {
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: '' };
    await expect(withingsAdapter.refresh(scriptedHttp({ status: 503, headers: {}, body: 'down' }), SETTINGS, tokens, NOW)).rejects.toMatchObject({ kind: 'temporary' });
    await expect(withingsAdapter.refresh(scriptedHttp(json({ status: 601, body: {} })), SETTINGS, tokens, NOW)).rejects.toMatchObject({ kind: 'rate_limited', details: { retryAfterMs: 60_000 } });
    await expect(withingsAdapter.refresh(scriptedHttp(json({ status: 0, body: { access_token: 'x' } })), SETTINGS, tokens, NOW)).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('revokes with a nonce from v2/signature and HMAC-SHA256 signatures over the sorted values', async () => {
    const http = scriptedHttp(json({ status: 0, body: { nonce: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d' } }), json({ status: 0, body: {} }));
    await withingsAdapter.revoke!(http, SETTINGS, { accessToken: 'a', expiresAt: '', providerUserId: '489418' });
    const [nonceReq, revokeReq] = http.requests;
    const hmac = (s: string) => createHmac('sha256', 'client-secret').update(s).digest('hex');
    expect(nonceReq.url).toBe('https://wbsapi.withings.net/v2/signature');
    expect(nonceReq.form!.signature).toBe(hmac(`getnonce,client-id,${nonceReq.form!.timestamp}`));
    expect(revokeReq.form).toEqual({
      action: 'revoke',
      client_id: 'client-id',
      nonce: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d',
      signature: hmac('revoke,client-id,aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d'),
      userid: '489418',
    });
  });

  it('reads the status table by family', () => {
    expect([0, 100, 200, 201, 401, 503, 522, 601, 2554, 2555, 9999].map(statusFamily)).toEqual([
      'ok',
      'auth_failed',
      'auth_failed',
      'invalid_params',
      'auth_failed',
      'invalid_params',
      'timeout',
      'too_many',
      'not_implemented',
      'unauthorized',
      'unknown',
    ]);
  });
});
