/**
 * A simulated Google Health API (v4) on a loopback port, written from Google's public documentation:
 * Google OAuth 2.0 (consent, token, revoke), `users/me/identity`, the dataPoints list route with
 * filters and page tokens, the dailyRollUp route over local days, the subscriber's notifications (the registered secret as the
 * `Authorization` header), and the failures Google documents (401 UNAUTHENTICATED for an expired
 * token, 429 RESOURCE_EXHAUSTED, also past 300 requests a minute per user, 503 UNAVAILABLE). See google-health-sim-*.ts for each part.
 */
import type { IncomingMessage } from 'node:http';
import { postToWebhook, SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { escapeHtml, readBody, SimReply } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { apiError, GoogleAuthServer, json } from './google-health-sim-auth';
import { dailyRollUpRoute } from './google-health-sim-rollup';
import { countRecords, exercisePoint, GoogleAccount, heartRatePoint, listRoute, rfc3339, seedAccount, sleepPoint, weightPoint } from './google-health-sim-data';

export interface GoogleHealthSimulatorOptions {
  /**
   * The `endpointAuthorization.secret` the operator registered for our subscriber (projects.subscribers):
   * Google sends it as the Authorization header of every notification. Given the client secret.
   */
  subscriberSecret: (clientSecret: string) => string;
  /** Heart-rate sampling of seeded data (Fitbit stores a sample a minute at most; 5 minutes keeps tests quick). */
  heartRateEveryS?: number;
}

export class GoogleHealthSimulator extends SimulatorBase<GoogleAccount> implements ProviderSimulator {
  readonly type = 'google_health';
  protected readonly label = 'Google Health';
  protected readonly client = { id: 'google-sim-client.apps.googleusercontent.com', secret: 'GOCSPX-google-sim-secret' };
  protected readonly auth = new GoogleAuthServer(this.client);
  private readonly last = new Map<string, { at: number }>();
  /** Requests per user in the current minute: the rate-limits page's 300 a minute per user, then 429. */
  private readonly perUserMinute = new Map<string, { minute: number; count: number }>();

  constructor(private readonly options: GoogleHealthSimulatorOptions) {
    super();
  }

  protected crashed(message: string): SimReply {
    return apiError(500, 'INTERNAL', message);
  }

  protected endpoints() {
    return { auth: `${this.url}/o/oauth2/v2/auth`, token: `${this.url}/token` };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const n = this.accounts.size + 1;
    const id = `${1_000_000_000 + n * 7919 + Math.floor(Math.random() * 1e6)}`;
    // Users east and west of UTC, so local and UTC days differ.
    this.accounts.set(id, seedAccount(id, n % 2 ? 3600 : -18_000, options.days, options.now, this.options.heartRateEveryS ?? 300));
    return { providerUserId: id };
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countRecords(this.account(user), from, to);
  }

  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    const t = at.getTime();
    let point;
    if (resource === 'exercise') a.points.exercise.push((point = exercisePoint(t, 30, a.offsetS, a.points.exercise.length)));
    else if (resource === 'sleep') a.points.sleep.push((point = sleepPoint(t - 8 * 3_600_000, a.offsetS)));
    else if (resource === 'weight') a.points.weight.push((point = weightPoint(t, a.offsetS, 71_500)));
    else if (resource === 'heart-rate' || resource === 'heart_rate') {
      a.points['heart-rate'].push(heartRatePoint(Math.floor(t / 60_000) * 60_000, a.offsetS, 77));
      this.last.set(`${a.healthUserId}:heart-rate`, { at: t });
      return [`heart-rate:${new Date(t).toISOString().slice(0, 10)}`];
    } else throw new Error(`Google Health simulator has no data type ${resource}`);
    this.last.set(`${a.healthUserId}:${resource}`, { at: point.at });
    return [`${resource}:${point.id}`];
  }

  async notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.deliver(webhookUrl, this.notification(user, resource), this.options.subscriberSecret(this.client.secret));
  }

  async notifyForged(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.deliver(webhookUrl, this.notification(user, resource), 'Bearer not-our-secret');
  }

  /** The subscriber check Google makes on subscribers.create: with the secret (201 expected), then without (401/403). */
  async verifySubscriber(webhookUrl: string): Promise<[number, number]> {
    const body = JSON.stringify({ type: 'verification' });
    return [await this.deliver(webhookUrl, body, this.options.subscriberSecret(this.client.secret)), await this.deliver(webhookUrl, body)];
  }

  /**
   * The notification for the last addData. Its body's field names are not in the documents read
   * (README, "Where the documents are silent"): the user and data type are given as the Subscription
   * resource names them, with the interval that changed.
   */
  private notification(user: SimulatedUser, resource: string): string {
    const a = this.account(user);
    const dataType = resource.replace(/_/g, '-');
    const last = this.last.get(`${a.healthUserId}:${dataType}`);
    if (!last) throw new Error(`no addData for ${resource} yet`);
    return JSON.stringify({
      user: `users/${a.healthUserId}`,
      dataType: `users/${a.healthUserId}/dataTypes/${dataType}`,
      interval: { startTime: rfc3339(last.at - 3_600_000), endTime: rfc3339(last.at + 3_600_000) },
    });
  }

  private deliver(webhookUrl: string, body: string, authorization?: string): Promise<number> {
    return postToWebhook(webhookUrl, body, { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) });
  }

  /** The subscriber is registered by the operator in Google Cloud, not by the service: none held here. */
  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return [];
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    if (url.pathname === '/o/oauth2/v2/auth') return this.authorizePage(method, url, body);
    if (url.pathname === '/token' && method === 'POST') return this.auth.token(new URLSearchParams(body));
    if (url.pathname === '/revoke' && method === 'POST') return this.auth.revoke(new URLSearchParams(body));
    if (url.pathname.startsWith('/v4/users/') && (method === 'GET' || method === 'POST')) return this.data(method, url, req.headers.authorization, body);
    return apiError(404, 'NOT_FOUND', 'Not Found');
  }

  private data(method: string, url: URL, authorization: string | undefined, body: string): SimReply {
    const who = this.auth.holder(authorization);
    if (who.userId) this.dataCalls.add(who.userId);
    const scripted = this.faults.take();
    if (scripted) {
      const { status, retryAfterS } = scripted;
      if (status === 'garbage') return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"dataPoints": [{"name": "users/1/dataTy' };
      if (status === 429) return apiError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric.', { 'retry-after': String(retryAfterS ?? 60) });
      if (status === 503) return apiError(503, 'UNAVAILABLE', 'The service is currently unavailable.');
      return apiError(status, 'INTERNAL', 'Internal error encountered.');
    }
    if (!who.valid || !who.userId) return apiError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    const minute = Math.floor(Date.now() / 60_000);
    const used = this.perUserMinute.get(who.userId);
    const count = used && used.minute === minute ? used.count + 1 : 1;
    this.perUserMinute.set(who.userId, { minute, count });
    if (count > 300) return apiError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric per user per minute.');
    const a = this.account({ providerUserId: who.userId });
    const m = /^\/v4\/users\/(me|[A-Za-z0-9-]+)\/(identity|dataTypes\/([a-z0-9-]+)\/dataPoints(:dailyRollUp)?)$/.exec(url.pathname);
    if (!m || (m[1] !== 'me' && m[1] !== a.healthUserId) || (method === 'POST') !== Boolean(m[4])) return apiError(404, 'NOT_FOUND', 'Not Found');
    if (m[2] === 'identity') return json(200, { name: 'users/me/identity', healthUserId: a.healthUserId, legacyUserId: `LEG${a.healthUserId.slice(-5)}` });
    return m[4] ? dailyRollUpRoute(a.days, m[3], body) : listRoute(a, m[3], url.searchParams);
  }

  private authorizePage(method: string, url: URL, body: string): SimReply {
    return this.consentRoute(method, url, body, {
      action: '/o/oauth2/v2/auth', title: 'Sign in – Google Accounts', heading: 'Wellstream wants access to your Google Account',
      describe: (who) => `Signed in as ${who}. Requested: ${escapeHtml(url.searchParams.get('scope') ?? '')}`,
    }, () => apiError(400, 'INVALID_ARGUMENT', 'No browser user set'));
  }
}
