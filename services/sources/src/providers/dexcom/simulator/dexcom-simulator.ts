/**
 * A Dexcom (API v3) simulator for the provider simulator suite: a real node:http server on
 * 127.0.0.1 that answers the documented login, token and data requests (dexcom-sim-oauth.ts,
 * dexcom-sim-api.ts) for seeded accounts (dexcom-sim-data.ts). Written from Dexcom's developer
 * pages, not from our adapter. Dexcom has no webhooks, so notify/notifyForged stay undefined and
 * subscriptions() is always empty.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SimAuthServer, SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { escapeHtml, readBody, SimReply } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { dataAnswer } from './dexcom-sim-api';
import { createSimUser, HOUR, reading, SimUser } from './dexcom-sim-data';
import { jsonReply, redirect, textReply } from './dexcom-sim-http';
import { SimOAuth } from './dexcom-sim-oauth';

export class DexcomSimulator extends SimulatorBase<SimUser> implements ProviderSimulator {
  readonly type = 'dexcom';
  protected readonly label = 'Dexcom';
  protected readonly client = { id: 'wellstream-dexcom-client', secret: 'wellstream-dexcom-secret' };
  private readonly oauth = new SimOAuth(this.client.id, this.client.secret);
  /** Dexcom's OAuth side holds the user objects its tokens speak for; the base asks by user id. */
  protected readonly auth: SimAuthServer<string> = {
    counts: { get: (id) => this.oauth.stats.get(this.accounts.get(id)!) },
    consent: (authorizeUrl, id, decision) => this.oauth.decide(authorizeUrl, this.accounts.get(id)!, decision),
    expireAccessTokens: (id) => this.oauth.expireAccessTokens(this.accounts.get(id)!),
    revokeGrants: (id) => this.oauth.revokeGrant(this.accounts.get(id)!),
  };

  protected crashed(message: string): SimReply {
    return jsonReply(500, { error: 'simulator_error', error_description: message });
  }

  protected endpoints() {
    return { auth: `${this.url}/v2/oauth2/login`, token: `${this.url}/v2/oauth2/token` };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const user = createSimUser(this.accounts.size, options.days, options.now);
    this.accounts.set(user.providerUserId, user);
    return { providerUserId: user.providerUserId };
  }

  override setBrowserUser(user: SimulatedUser): void {
    this.account(user);
    super.setBrowserUser(user);
  }

  /**
   * What the seeded data maps to (the mapping's rules, not the adapter's code): one `cgm` record per
   * UTC hour holding a reading, its start_time the hour's start; one `measurement` per calibration.
   */
  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    const u = this.account(user);
    const inRange = (ms: number) => ms >= from.getTime() && ms < to.getTime();
    const hours = new Set(u.egvs.map((r) => Math.floor(r.ms / HOUR) * HOUR).filter(inRange));
    return { cgm: hours.size, measurement: u.calibrations.filter((c) => inRange(c.ms)).length };
  }

  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const u = this.account(user);
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

  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return [];
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/v2/oauth2/login') return this.loginPage(req, url);
    if (url.pathname === '/v2/oauth2/token' && req.method === 'POST') {
      const answer = this.oauth.token(new URLSearchParams(await readBody(req)));
      return jsonReply(answer.status, answer.body, { 'cache-control': 'no-store' });
    }
    if (url.pathname.startsWith('/v3/users/self/') && req.method === 'GET') return this.data(req, url);
    return jsonReply(404, { error: 'not_found' });
  }

  /** A data call: scripted failures first, then the bearer token, then the documented answer. */
  private data(req: IncomingMessage, url: URL): SimReply {
    const failure = this.faults.take();
    if (failure) {
      if (failure.status === 'garbage') return textReply(200, '{"recordType":"egv","records":[{"recordId":', 'application/json');
      if (failure.status === 429) return jsonReply(429, { error: 'rate_limited' }, failure.retryAfterS !== undefined ? { 'retry-after': String(failure.retryAfterS) } : {});
      return textReply(failure.status, '<html><body>Service Unavailable</body></html>', 'text/html');
    }
    const user = this.oauth.bearer(req.headers.authorization);
    if (!user) return jsonReply(401, { error: 'invalid_token', error_description: 'access token invalid or expired' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
    this.dataCalls.add(user.providerUserId);
    const answer = dataAnswer(url.pathname, url.searchParams, user);
    return jsonReply(answer.status, answer.body);
  }

  /** GET shows the consent page for the browser user; POST (its buttons) redirects as authorize() does. */
  private async loginPage(req: IncomingMessage, url: URL): Promise<SimReply> {
    if (req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const user = this.accounts.get(form.get('user') ?? '');
      if (!user) return textReply(400, 'unknown user');
      try {
        return redirect(this.oauth.decide(form.get('authorize_url') ?? '', user, form.get('decision') === 'allow' ? 'allow' : 'deny'));
      } catch (err) {
        return textReply(400, String(err));
      }
    }
    const user = this.browserUser ? this.account(this.browserUser) : undefined;
    if (!user) return textReply(400, 'Dexcom simulator: no browser user set (setBrowserUser)');
    try {
      this.oauth.decide(url.toString(), user, 'deny'); // validates the URL; a deny issues no code
    } catch (err) {
      return textReply(400, String(err));
    }
    const hidden = `<input type="hidden" name="authorize_url" value="${escapeHtml(url.toString())}"><input type="hidden" name="user" value="${escapeHtml(user.providerUserId)}">`;
    return textReply(
      200,
      `<!doctype html><html><head><title>Dexcom (simulated) – Authorize</title></head><body>
<h1>Allow Wellstream to access your Dexcom data?</h1><p>Account ${escapeHtml(user.providerUserId)}</p>
<form method="post" action="/v2/oauth2/login">${hidden}<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button></form>
</body></html>`,
      'text/html',
    );
  }
}
