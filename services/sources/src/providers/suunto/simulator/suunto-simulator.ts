/**
 * A simulated Suunto Cloud API on a loopback port, written from Suunto's API Zone pages: the
 * authorization API (suunto-sim-auth.ts), the data API behind its API gateway (every call needs the
 * subscription key in `Ocp-Apim-Subscription-Key` and a valid JWT: 401 otherwise; 429 with
 * Retry-After; 5xx), the Workout API (`/v2/workouts` list and by key, `{error, metadata, payload}`),
 * the 24/7 APIs (`/247/daily-activity-statistics`, `/247samples/sleep`, `/247samples/activity`), and
 * webhooks signed with the notification secret (`X-HMAC-SHA256-Signature`, hex HMAC-SHA256 of the
 * body). Webhook URLs live in the application's settings: the simulator holds no subscriptions.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { postToWebhook, SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { CallCounter } from '../../../../test/simulators/kit/sim-faults';
import { readBody, SimReply } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { json, SuuntoAuthServer } from './suunto-sim-auth';
import { activitySample, countRecords, dailyStatistics, Obj, rng, samplesIn, seedAccount, sleepObj, SuuntoAccount, workoutObj } from './suunto-sim-data';

const DAY = 86_400_000;

export class SuuntoSimulator extends SimulatorBase<SuuntoAccount> implements ProviderSimulator {
  readonly type = 'suunto';
  protected readonly label = 'Suunto';
  protected readonly client = { id: 'suunto-sim-client', secret: 'suunto-sim-secret' };
  readonly subscriptionKey = 'suunto-sim-subscription-key-0001';
  readonly notificationSecret = 'suunto-sim-notification-secret';
  protected readonly auth = new SuuntoAuthServer(this.client);
  private readonly objectCalls = new CallCounter<string>();
  private lastDelivery?: { url: string; raw: string; headers: Record<string, string> };
  /** Every data request received (after the gateway's key check), in order: path, query and user. */
  private readonly log: { path: string; query: Record<string, string>; user?: string }[] = [];

  protected crashed(message: string): SimReply {
    return json(500, { statusCode: 500, message });
  }

  protected endpoints() {
    return {
      auth: `${this.url}/oauth/authorize`,
      token: `${this.url}/oauth/token`,
      extra: { WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY: this.subscriptionKey, WELLSTREAM_SOURCE_SUUNTO_NOTIFICATION_SECRET: this.notificationSecret },
    };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const n = this.accounts.size + 1;
    const username = `suuntouser${n}${Math.floor(Math.random() * 1e6)}`;
    // Users east and west of UTC, so local and UTC days differ.
    this.accounts.set(username, seedAccount(username, n % 2 ? 120 : -300, options.days, options.now, n * 7919));
    return { providerUserId: username };
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countRecords(this.account(user), from, to);
  }

  /** workouts: a 30-minute workout from `at` (returns its key); sleep: a nap ending at `at`; activity: a sample at `at`. */
  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    const r = rng(at.getTime() % 100_000);
    const t = at.getTime();
    if (resource === 'workouts') {
      const w = workoutObj(a, t, 30, r);
      a.workouts.push(w);
      a.last.set(resource, w);
      return [String(w.workoutKey)];
    }
    if (resource === 'sleep') {
      const s = sleepObj(a, t - 30 * 60_000, t, true, r);
      a.sleeps.push(s);
      a.last.set(resource, s);
      return [`sleep:${(s.entryData as Obj).SleepId}`];
    }
    if (resource === 'activity') {
      const s = activitySample(a, Math.floor(t / 600_000) * 600_000, r);
      a.activity.push(s);
      a.last.set(resource, s);
      return [`activity:${new Date(t).toISOString().slice(0, 10)}`];
    }
    throw new Error(`Suunto simulator has no resource ${resource}`);
  }

  /** The documented notification for the last addData of `resource`, signed with the notification secret. */
  async notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.post(webhookUrl, this.event(user, resource), this.notificationSecret);
  }

  async notifyForged(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.post(webhookUrl, this.event(user, resource), 'not-the-notification-secret');
  }

  /** Suunto's repeat of the last delivery, byte for byte. */
  async redeliver(): Promise<number> {
    if (!this.lastDelivery) throw new Error('Suunto simulator: nothing delivered yet');
    const d = this.lastDelivery;
    return postToWebhook(d.url, d.raw, d.headers, 10_000);
  }

  objectFetches(user: SimulatedUser, id: string): number {
    return this.objectCalls.get(`${user.providerUserId}:${id}`);
  }

  /** A workout uploaded late: its time `at` days ago, announced by WORKOUT_CREATED like any other. */
  editData(user: SimulatedUser, resource: string, at: Date): string[] {
    if (resource !== 'workouts') throw new Error(`Suunto simulator cannot edit ${resource}`);
    return this.addData(user, resource, at);
  }

  private event(user: SimulatedUser, resource: string): Obj {
    const a = this.account(user);
    const last = a.last.get(resource);
    if (!last) throw new Error(`Suunto simulator: addData(${resource}) first`);
    if (resource === 'workouts') return { type: 'WORKOUT_CREATED', username: a.username, workout: last, gear: { manufacturer: 'Suunto', name: 'Suunto Vertical', productType: 'SPORT_WATCH' } };
    const type = resource === 'sleep' ? 'SUUNTO_247_SLEEP_CREATED' : 'SUUNTO_247_ACTIVITY_CREATED';
    return { type, username: a.username, samples: [last] };
  }

  private async post(url: string, body: Obj, secret: string): Promise<number> {
    const raw = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', 'x-hmac-sha256-signature': createHmac('sha256', secret).update(raw).digest('hex') };
    this.lastDelivery = { url, raw, headers };
    return postToWebhook(url, raw, headers, 10_000);
  }

  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return [];
  }

  /** The data requests `user` made so far (a copy), for assertions on what was asked. */
  requests(user: SimulatedUser): { path: string; query: Record<string, string> }[] {
    return this.log.filter((r) => r.user === user.providerUserId).map(({ path, query }) => ({ path, query }));
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    if (url.pathname === '/oauth/authorize') return this.authorizePage(method, url, body);
    if (url.pathname === '/oauth/token' && method === 'POST') {
      const params = new URLSearchParams(url.search);
      if (/application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) for (const [k, v] of new URLSearchParams(body)) params.set(k, v);
      return this.auth.token(req.headers.authorization, params);
    }
    if (url.pathname === '/oauth/deauthorize' && method === 'GET') return this.auth.deauthorize(req.headers.authorization, url.searchParams.get('client_id'));
    return this.data(method, url, req.headers['ocp-apim-subscription-key'], req.headers.authorization);
  }

  private data(method: string, url: URL, key: string | string[] | undefined, authorization: string | undefined): SimReply {
    // The API gateway checks the subscription key before anything else (Azure API Management's answer).
    if (key !== this.subscriptionKey) return json(401, { statusCode: 401, message: 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.' });
    const who = this.auth.holder(authorization);
    if (who.user) this.dataCalls.add(who.user);
    this.log.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), ...(who.user ? { user: who.user } : {}) });
    const byKey = /^\/v2\/workouts\/([^/]+)$/.exec(url.pathname);
    if (who.user && byKey) this.objectCalls.add(`${who.user}:${byKey[1]}`);
    const scripted = this.faults.take();
    if (scripted) {
      if (scripted.status === 'garbage') return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"payload": [{"workoutKey": "trunc' };
      if (scripted.status === 429) return json(429, { statusCode: 429, message: `Rate limit is exceeded. Try again in ${scripted.retryAfterS ?? 60} seconds.` }, { 'retry-after': String(scripted.retryAfterS ?? 60) });
      return { status: scripted.status, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Unavailable</body></html>' };
    }
    if (!who.valid || !who.user) return json(401, { error: 'invalid_token', error_description: 'Access token expired or invalid' });
    if (method !== 'GET') return json(405, { error: { code: '405', description: 'Method not allowed' } });
    const a = this.account({ providerUserId: who.user });
    const q = url.searchParams;
    const ms = (name: string, fallback: number) => (q.get(name) === null ? fallback : Number(q.get(name)));
    if (url.pathname === '/v2/workouts') {
      const since = ms('since', 0);
      const until = ms('until', Date.now());
      const limit = Math.min(100, ms('limit', 100));
      const offset = ms('offset', 0);
      const list = a.workouts.filter((w) => Number(w.startTime) >= since && Number(w.startTime) <= until).sort((x, y) => Number(x.startTime) - Number(y.startTime));
      return json(200, { error: null, metadata: { until: String(until) }, payload: list.slice(offset, offset + limit) });
    }
    if (byKey) {
      const w = a.workouts.find((x) => x.workoutKey === byKey[1]);
      return w ? json(200, { error: null, metadata: {}, payload: w }) : json(404, { error: { code: '404', description: 'Workout not found' }, metadata: {}, payload: null });
    }
    if (url.pathname === '/247/daily-activity-statistics') {
      const from = Date.parse(`${q.get('startdate')}Z`);
      const to = Date.parse(`${q.get('enddate')}Z`);
      if (Number.isNaN(from) || Number.isNaN(to) || to < from) return json(400, { error: 'startdate and enddate must be ISO-8601 date-times' });
      // "Maximum fetch interval duration is 28 days."
      if (to - from > 28 * DAY) return json(400, { error: 'Maximum fetch interval duration is 28 days' });
      return json(200, dailyStatistics(a, from, to));
    }
    const samples = /^\/247samples\/(sleep|activity|recovery)$/.exec(url.pathname);
    if (samples) {
      const from = ms('from', NaN);
      const to = ms('to', NaN);
      if (Number.isNaN(from) || Number.isNaN(to) || to < from || to - from > 28 * DAY) return json(400, { error: 'from and to must be epoch milliseconds at most 28 days apart' });
      const list = samples[1] === 'sleep' ? a.sleeps : samples[1] === 'activity' ? a.activity : [];
      return json(200, samplesIn(list, from, to));
    }
    return json(404, { statusCode: 404, message: 'Resource not found' });
  }

  private authorizePage(method: string, url: URL, body: string): SimReply {
    return this.consentRoute(method, url, body, {
      action: '/oauth/authorize', title: 'Suunto – authorize', heading: 'Allow access to your Suunto data?',
      describe: (who) => `Signed in to Suunto as ${who}.`,
    }, () => json(400, { error: 'No browser user set' }));
  }
}

