/**
 * A Dexcom (API v3) simulator for the provider simulator suite: a real node:http server on
 * 127.0.0.1 that answers the documented login, token and data requests (dexcom-sim-oauth.ts,
 * dexcom-sim-api.ts) for seeded accounts (dexcom-sim-data.ts). Written from Dexcom's developer
 * pages, not from our adapter. Dexcom has no webhooks, so notify/notifyForged stay undefined and
 * subscriptions() is always empty.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { dataAnswer } from './dexcom-sim-api';
import { createSimUser, HOUR, reading, SimUser } from './dexcom-sim-data';
import { escapeHtml, readBody, redirect, sendJson, sendText } from './dexcom-sim-http';
import { SimOAuth } from './dexcom-sim-oauth';

type Failure = { status: number | 'garbage'; retryAfterS?: number };

export class DexcomSimulator implements ProviderSimulator {
  readonly type = 'dexcom';
  private server?: Server;
  private port = 0;
  private readonly users = new Map<string, SimUser>();
  private readonly oauth = new SimOAuth('wellstream-dexcom-client', 'wellstream-dexcom-secret');
  private readonly failures: Failure[] = [];
  private browserUser?: SimUser;

  get url(): string {
    if (!this.server) throw new Error('Dexcom simulator: not started');
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => sendJson(res, 500, { error: 'simulator_error', error_description: String(err) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  env(): Record<string, string> {
    return {
      WELLSTREAM_SOURCE_DEXCOM_CLIENT_ID: this.oauth.clientId,
      WELLSTREAM_SOURCE_DEXCOM_CLIENT_SECRET: 'wellstream-dexcom-secret',
      WELLSTREAM_SOURCE_DEXCOM_AUTH_URL: `${this.url}/v2/oauth2/login`,
      WELLSTREAM_SOURCE_DEXCOM_TOKEN_URL: `${this.url}/v2/oauth2/token`,
      WELLSTREAM_SOURCE_DEXCOM_API_URL: this.url,
    };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const user = createSimUser(this.users.size, options.days, options.now);
    this.users.set(user.providerUserId, user);
    return { providerUserId: user.providerUserId };
  }

  authorize(authorizeUrl: string, user: SimulatedUser, decision: 'allow' | 'deny'): string {
    return this.oauth.decide(authorizeUrl, this.user(user), decision);
  }

  setBrowserUser(user: SimulatedUser): void {
    this.browserUser = this.user(user);
  }

  /**
   * What the seeded data maps to (the mapping's rules, not the adapter's code): one `cgm` record per
   * UTC hour holding a reading, its start_time the hour's start; one `measurement` per calibration.
   */
  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    const u = this.user(user);
    const inRange = (ms: number) => ms >= from.getTime() && ms < to.getTime();
    const hours = new Set(u.egvs.map((r) => Math.floor(r.ms / HOUR) * HOUR).filter(inRange));
    return { cgm: hours.size, measurement: u.calibrations.filter((c) => inRange(c.ms)).length };
  }

  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const u = this.user(user);
    const ms = at.getTime();
    if (resource === 'egvs') {
      const prev = u.egvs.filter((r) => r.ms < ms).pop();
      u.egvs.push(reading(u, ms, Math.random, prev));
      return [`egvs:${new Date(Math.floor(ms / HOUR) * HOUR).toISOString().slice(0, 19)}Z`];
    }
    if (resource === 'calibrations') {
      const recordId = randomUUID();
      u.calibrations.push({ recordId, ms, value: 100 + Math.round(Math.random() * 60) });
      return [recordId];
    }
    throw new Error(`Dexcom simulator: no resource ${resource}`);
  }

  expireAccessTokens(user: SimulatedUser): void {
    this.oauth.expireAccessTokens(this.user(user));
  }

  revokeGrant(user: SimulatedUser): void {
    this.oauth.revokeGrant(this.user(user));
  }

  failNext(count: number, status: number | 'garbage', retryAfterS?: number): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, retryAfterS });
  }

  stats(user?: SimulatedUser): { tokenExchanges: number; refreshes: number; revokes: number; dataRequests: number } {
    const all = user ? [this.oauth.statsOf(this.user(user))] : [...this.oauth.stats.values()];
    return all.reduce((a, s) => ({ tokenExchanges: a.tokenExchanges + s.tokenExchanges, refreshes: a.refreshes + s.refreshes, revokes: a.revokes + s.revokes, dataRequests: a.dataRequests + s.dataRequests }), {
      tokenExchanges: 0,
      refreshes: 0,
      revokes: 0,
      dataRequests: 0,
    });
  }

  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return [];
  }

  private user(user: SimulatedUser): SimUser {
    const u = this.users.get(user.providerUserId);
    if (!u) throw new Error(`Dexcom simulator: unknown user ${user.providerUserId}`);
    return u;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/v2/oauth2/login') return this.loginPage(req, res, url);
    if (url.pathname === '/v2/oauth2/token' && req.method === 'POST') {
      const answer = this.oauth.token(new URLSearchParams(await readBody(req)));
      return sendJson(res, answer.status, answer.body, { 'cache-control': 'no-store' });
    }
    if (url.pathname.startsWith('/v3/users/self/') && req.method === 'GET') return this.data(req, res, url);
    sendJson(res, 404, { error: 'not_found' });
  }

  /** A data call: scripted failures first, then the bearer token, then the documented answer. */
  private data(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const failure = this.failures.shift();
    if (failure) {
      if (failure.status === 'garbage') return sendText(res, 200, '{"recordType":"egv","records":[{"recordId":', 'application/json');
      if (failure.status === 429) return sendJson(res, 429, { error: 'rate_limited' }, failure.retryAfterS !== undefined ? { 'retry-after': String(failure.retryAfterS) } : {});
      return sendText(res, failure.status, '<html><body>Service Unavailable</body></html>', 'text/html');
    }
    const user = this.oauth.bearer(req.headers.authorization);
    if (!user) return sendJson(res, 401, { error: 'invalid_token', error_description: 'access token invalid or expired' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
    this.oauth.statsOf(user).dataRequests++;
    const answer = dataAnswer(url.pathname, url.searchParams, user);
    sendJson(res, answer.status, answer.body);
  }

  /** GET shows the consent page for the browser user; POST (its buttons) redirects as authorize() does. */
  private async loginPage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const user = this.users.get(form.get('user') ?? '');
      if (!user) return sendText(res, 400, 'unknown user');
      try {
        return redirect(res, this.oauth.decide(form.get('authorize_url') ?? '', user, form.get('decision') === 'allow' ? 'allow' : 'deny'));
      } catch (err) {
        return sendText(res, 400, String(err));
      }
    }
    const user = this.browserUser;
    if (!user) return sendText(res, 400, 'Dexcom simulator: no browser user set (setBrowserUser)');
    try {
      this.oauth.decide(url.toString(), user, 'deny'); // validates the URL; a deny issues no code
    } catch (err) {
      return sendText(res, 400, String(err));
    }
    const hidden = `<input type="hidden" name="authorize_url" value="${escapeHtml(url.toString())}"><input type="hidden" name="user" value="${escapeHtml(user.providerUserId)}">`;
    sendText(
      res,
      200,
      `<!doctype html><html><head><title>Dexcom (simulated) – Authorize</title></head><body>
<h1>Allow Wellstream to access your Dexcom data?</h1><p>Account ${escapeHtml(user.providerUserId)}</p>
<form method="post" action="/v2/oauth2/login">${hidden}<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button></form>
</body></html>`,
      'text/html',
    );
  }
}

