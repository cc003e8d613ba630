/**
 * A simulated Strava (API v3) on a loopback port, written from Strava's public documentation
 * (developers.strava.com: authentication, reference, webhooks, rate limits): the OAuth consent page
 * and token URL, deauthorization, the athlete's activities in numbered pages, the app's push
 * subscription with its hub.challenge validation, unsigned webhook events (activity create, update,
 * delete; athlete deauthorization), rate-limit headers on every answer and the failures Strava
 * documents (401, 429, 5xx). See strava-sim-*.ts for each part.
 */
import type { IncomingMessage } from 'node:http';
import { SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { CallCounter, ScriptedFaults } from '../../../../test/simulators/kit/sim-faults';
import { escapeHtml, readBody } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { dataRoute } from './strava-sim-api';
import { fault, SimReply, StravaAuthServer } from './strava-sim-auth';
import { countRecords, makeActivity, rng, seedAccount, StravaAccount } from './strava-sim-data';
import { StravaEvent, StravaWebhooks } from './strava-sim-webhooks';

const ZONES = ['Europe/Berlin', 'America/Los_Angeles', 'Asia/Tokyo', 'Australia/Adelaide'];
/** Documented defaults: overall 200 per 15 minutes / 2,000 a day; "non-upload" (read) 100 / 1,000. */
const LIMITS = { overall: '200,2000', read: '100,1000' };

export interface StravaSimulatorOptions {
  /** The most activities a page holds whatever per_page asks (documented maximum 200; smaller in tests, so syncs cross pages). */
  maxPerPage?: number;
}

export class StravaSimulator extends SimulatorBase<StravaAccount> implements ProviderSimulator {
  readonly type = 'strava';
  protected readonly label = 'Strava';
  private readonly maxPerPage: number;
  protected readonly client = { id: '5', secret: 'strava-sim-secret', applicationId: 5 };
  protected readonly auth = new StravaAuthServer(this.client, (id) => this.account({ providerUserId: id }));
  private readonly webhooks = new StravaWebhooks(this.client);
  private usage = { quarter: 0, day: 0 };
  private readonly subscriptionFaults = new ScriptedFaults();
  /** Boxes each athlete clears on the next consent page. */
  private readonly unticked = new Map<string, string[]>();
  /** `GET /athlete` calls per athlete (what a token check costs). */
  readonly athleteCalls = new CallCounter<string>();

  constructor(options: StravaSimulatorOptions = {}) {
    super();
    this.maxPerPage = Math.min(options.maxPerPage ?? 200, 200);
  }

  protected crashed(message: string): SimReply {
    return fault(500, 'Internal Server Error', [{ resource: 'Server', field: '', code: message }]);
  }

  protected endpoints() {
    return { auth: `${this.url}/oauth/authorize`, token: `${this.url}/oauth/token`, api: `${this.url}/api/v3` };
  }

  /** Athletes in zones east and west of UTC; every second one has activity ids beyond 2^53, as Strava's documented examples do. */
  createUser(options: { days: number; now: Date }): SimulatedUser {
    const n = this.accounts.size + 1;
    const athleteId = BigInt(134815 + n * 1009);
    const firstId = n % 2 === 0 ? 12345678987654321n + BigInt(n) * 1_000_000n : 10_000_000_000n + BigInt(n) * 1_000_000n;
    const a = seedAccount(athleteId, firstId, ZONES[n % ZONES.length], `Athlete${n}`, options.days, options.now, n * 7919);
    this.accounts.set(athleteId.toString(), a);
    return { providerUserId: athleteId.toString() };
  }

  override authorize(authorizeUrl: string, user: SimulatedUser, decision: 'allow' | 'deny'): string {
    this.account(user);
    const unticked = this.unticked.get(user.providerUserId) ?? [];
    this.unticked.delete(user.providerUserId);
    return this.auth.consent(authorizeUrl, user.providerUserId, decision, unticked);
  }

  /** On the athlete's next consent page these scopes' boxes are cleared (activity:read_all: private activities; activity:read: all activities). */
  untick(user: SimulatedUser, scopes: string[]): void {
    this.unticked.set(user.providerUserId, scopes);
  }

  /** The kilocalories Strava's DetailedActivity gives for one activity. */
  caloriesOf(user: SimulatedUser, activityId: string): number {
    const x = this.account(user).activities.find((y) => y.id === BigInt(activityId));
    if (!x) throw new Error(`no activity ${activityId}`);
    return x.calories;
  }

  /** The next `count` push-subscription calls (view, create, delete) answer `status` (a Strava outage or limit). */
  failSubscriptionCalls(count: number, status: number): void {
    this.subscriptionFaults.set(count, status);
  }

  /** The app's push subscription is gone at Strava (deleted from another environment, or never made). */
  dropSubscription(): void {
    this.webhooks.held = undefined;
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countRecords(this.account(user), from, to);
  }

  /** A new activity that ended at `at` (uploaded when it ended); its id is the record's log_id. */
  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    if (resource !== 'activities') throw new Error(`Strava simulator has no resource ${resource}`);
    const a = this.account(user);
    const x = makeActivity(a.nextId, at.getTime(), rng(at.getTime() % 100_000));
    x.startMs = Math.floor((at.getTime() - x.elapsedS * 1000) / 1000) * 1000;
    a.nextId += 3n;
    a.activities.push(x);
    a.lastCreated = x.id;
    return [x.id.toString()];
  }

  /** The `create` event of the last addData, to the subscription's callback (Strava posts only where a subscription points). */
  async notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.webhooks.deliver(webhookUrl, this.activityEvent(user, resource, 'create', this.lastCreated(user)));
  }

  /**
   * Strava's events carry no signature; a forgery is an event Strava did not send: by default one
   * naming another subscription id, or (`how: 'owner'`) one for an athlete who never authorized us.
   */
  async notifyForged(webhookUrl: string, user: SimulatedUser, resource: string, how: 'subscription' | 'owner' = 'subscription'): Promise<number> {
    const event = this.activityEvent(user, resource, 'create', this.lastCreated(user));
    if (how === 'subscription') event.subscription_id += 1000;
    else event.owner_id = 999_999_999n;
    return this.webhooks.deliver(webhookUrl, event);
  }

  /** The athlete edits an activity's title/type/privacy on Strava; the `update` event follows. */
  async notifyUpdate(webhookUrl: string, user: SimulatedUser, activityId: string, updates: { title?: string; type?: string; private?: 'true' | 'false' }): Promise<number> {
    const x = this.account(user).activities.find((y) => y.id === BigInt(activityId));
    if (!x) throw new Error(`no activity ${activityId}`);
    if (updates.title) x.name = updates.title;
    if (updates.type) [x.type, x.sportType] = [updates.type, updates.type];
    if (updates.private) x.private = updates.private === 'true';
    return this.webhooks.deliver(webhookUrl, { ...this.activityEvent(user, 'activities', 'update', x.id), updates: { ...updates } });
  }

  /** The athlete deletes an activity on Strava; the `delete` event follows. */
  async notifyDelete(webhookUrl: string, user: SimulatedUser, activityId: string): Promise<number> {
    const a = this.account(user);
    a.activities = a.activities.filter((y) => y.id !== BigInt(activityId));
    return this.webhooks.deliver(webhookUrl, this.activityEvent(user, 'activities', 'delete', BigInt(activityId)));
  }

  /**
   * What anyone who knows an athlete's id (public on Strava) and our subscription id (a small
   * sequential number) can post: the deauthorization event, while the athlete's tokens still work.
   */
  async notifyForgedDeauthorization(webhookUrl: string, user: SimulatedUser): Promise<number> {
    const a = this.account(user);
    const event: StravaEvent = { aspect_type: 'update', event_time: Math.floor(Date.now() / 1000), object_id: a.athleteId, object_type: 'athlete', owner_id: a.athleteId, subscription_id: this.subscriptionId(), updates: { authorized: 'false' } };
    return this.webhooks.deliver(webhookUrl, event);
  }

  /** The athlete revokes our access in their Strava settings: every token stops working, and the athlete event follows. */
  async notifyDeauthorization(webhookUrl: string, user: SimulatedUser): Promise<number> {
    this.auth.revokeGrants(user.providerUserId);
    const a = this.account(user);
    const event: StravaEvent = { aspect_type: 'update', event_time: Math.floor(Date.now() / 1000), object_id: a.athleteId, object_type: 'athlete', owner_id: a.athleteId, subscription_id: this.subscriptionId(), updates: { authorized: 'false' } };
    return this.webhooks.deliver(webhookUrl, event);
  }

  private lastCreated(user: SimulatedUser): bigint {
    const id = this.account(user).lastCreated;
    if (id === undefined) throw new Error('Strava sends a create event only after addData');
    return id;
  }

  private subscriptionId(): number {
    if (!this.webhooks.held) throw new Error('no push subscription: Strava sends events only to a subscription\'s callback');
    return this.webhooks.held.id;
  }

  private activityEvent(user: SimulatedUser, resource: string, aspect: StravaEvent['aspect_type'], objectId: bigint): StravaEvent {
    if (resource !== 'activities') throw new Error(`Strava sends no events for ${resource}`);
    const a = this.account(user);
    return { aspect_type: aspect, event_time: Math.floor(Date.now() / 1000), object_id: objectId, object_type: 'activity', owner_id: a.athleteId, subscription_id: this.subscriptionId(), updates: {} };
  }

  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return this.webhooks.held ? [{ key: String(this.webhooks.held.id), callbackUrl: this.webhooks.held.callback_url }] : [];
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const form = new URLSearchParams(body);
    const params = new URLSearchParams([...url.searchParams, ...(method === 'POST' ? form : [])]);
    if (url.pathname === '/oauth/authorize') return this.authorizePage(method, url, body);
    if ((url.pathname === '/oauth/token' || url.pathname === '/api/v3/oauth/token') && method === 'POST') return this.auth.token(params);
    if (url.pathname === '/oauth/deauthorize' && method === 'POST') {
      const bearer = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : null;
      return this.auth.deauthorize(params.get('access_token') ?? bearer);
    }
    if (url.pathname.startsWith('/api/v3/push_subscriptions')) {
      const scripted = this.subscriptionFaults.take();
      if (scripted && scripted.status !== 'garbage') return fault(scripted.status, scripted.status === 429 ? 'Rate Limit Exceeded' : 'Service Unavailable');
    }
    const hook = await this.webhooks.route(method, url.pathname, params);
    if (hook) return hook;
    if (url.pathname.startsWith('/api/v3/') && method === 'GET') return this.withLimits(this.data(url, req.headers.authorization));
    return fault(404, 'Record Not Found');
  }

  /** Every API answer carries the documented X-RateLimit-* / X-ReadRateLimit-* headers. */
  private withLimits(reply: SimReply): SimReply {
    this.usage.quarter++;
    this.usage.day++;
    const usage = `${this.usage.quarter % 100},${this.usage.day % 1000}`;
    return { ...reply, headers: { 'x-ratelimit-limit': LIMITS.overall, 'x-ratelimit-usage': usage, 'x-readratelimit-limit': LIMITS.read, 'x-readratelimit-usage': usage, ...reply.headers } };
  }

  private data(url: URL, authorization: string | undefined): SimReply {
    const who = this.auth.holder(authorization);
    if (who.athleteId) this.dataCalls.add(who.athleteId);
    if (who.athleteId && url.pathname === '/api/v3/athlete') this.athleteCalls.add(who.athleteId);
    const scripted = this.faults.take();
    if (scripted) {
      const { status, retryAfterS } = scripted;
      if (status === 'garbage') return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '[{"resource_state":2,"id":1234' };
      if (status === 429) {
        // Strava documents no Retry-After; it is sent only when a test asks for one (a proxy could add it).
        return fault(429, 'Rate Limit Exceeded', [{ resource: 'Application', field: 'rate limit', code: 'exceeded' }], {
          'x-ratelimit-limit': LIMITS.overall,
          'x-ratelimit-usage': '201,1200',
          'x-readratelimit-limit': LIMITS.read,
          'x-readratelimit-usage': '101,600',
          ...(retryAfterS !== undefined ? { 'retry-after': String(retryAfterS) } : {}),
        });
      }
      return { status, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>Strava is temporarily unavailable</h1></body></html>' };
    }
    if (!who.valid || !who.athleteId) return fault(401, 'Authorization Error', [{ resource: 'Athlete', field: 'access_token', code: 'invalid' }]);
    return dataRoute(this.account({ providerUserId: who.athleteId }), who.scope ?? '', url.pathname, url.searchParams, this.maxPerPage) ?? fault(404, 'Record Not Found');
  }

  /** The consent page for a browser (GET) and its Authorize/Cancel form (POST): a 302 to the redirect. */
  private authorizePage(method: string, url: URL, body: string): SimReply {
    return this.consentRoute(method, url, body, {
      action: '/oauth/authorize', title: 'Strava – Authorize', heading: 'Authorize access to your Strava account?',
      describe: (who) => `Signed in as athlete ${who}. Requested: ${escapeHtml(url.searchParams.get('scope') ?? '')}`,
    }, () => fault(400, 'Bad Request', [{ resource: 'Athlete', field: 'session', code: 'missing' }]));
  }
}
