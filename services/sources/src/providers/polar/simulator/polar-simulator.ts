/**
 * A simulated Polar AccessLink v3 on a loopback port, written from Polar's public reference
 * (www.polar.com/accesslink-api): the OAuth2 authorization form and token endpoint, the user
 * registration, the user data routes, the webhook API with its PING, signed deliveries, and the
 * failures Polar documents (401, 403 for missing consents, 429 with RateLimit-* headers, 5xx).
 * See polar-sim-*.ts for each part and the adapter's README for the readings chosen.
 *
 * Polar has neither token expiry in practice nor refresh tokens: `expireAccessTokens` and
 * `revokeGrant` both make every token of the user refused with 401 from then on, which is what a
 * token revoked at Polar (by the user, or by a reused code) looks like.
 */
import type { IncomingMessage } from 'node:http';
import { SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { escapeHtml, readBody } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { PolarDataApi } from './polar-sim-api';
import { error, PolarAuthServer, Reply } from './polar-sim-auth';
import { activity, countRecords, exercise, heartDay, localClock, localDay, night, physicalInfo, PolarAccount, rng, seedAccount } from './polar-sim-data';
import { PolarRateLimit } from './polar-sim-ratelimit';
import { PolarUsers } from './polar-sim-users';
import { PolarWebhooks } from './polar-sim-webhooks';

/** Our resource names and Polar's event names, both accepted by addData/notify. */
const EVENTS: Record<string, string> = {
  exercises: 'EXERCISE', EXERCISE: 'EXERCISE',
  sleep: 'SLEEP', SLEEP: 'SLEEP',
  activities: 'ACTIVITY_SUMMARY', ACTIVITY_SUMMARY: 'ACTIVITY_SUMMARY',
  continuous_heart_rate: 'CONTINUOUS_HEART_RATE', CONTINUOUS_HEART_RATE: 'CONTINUOUS_HEART_RATE',
  physical_info: 'PHYSICAL_INFO',
};

export class PolarSimulator extends SimulatorBase<PolarAccount, number> implements ProviderSimulator {
  readonly type = 'polar';
  protected readonly label = 'Polar';
  protected readonly client = { id: 'polar-sim-client', secret: 'polar-sim-secret' };
  protected readonly auth = new PolarAuthServer(this.client);
  private readonly webhooks = new PolarWebhooks();
  private readonly api = new PolarDataApi(() => this.url);
  private readonly users = new PolarUsers(this.auth);
  private nextUserId = 10_579;
  private readonly rateLimit = new PolarRateLimit(() => [...this.accounts.values()].filter((a) => a.registeredAt !== null).length);
  private latencyMs = 0;

  /**
   * `shortLimit`: the short-term (15-minute) limit instead of the documented 500 + 20 × users, as for
   * an application Polar granted more (the provider simulator suite's); `setRateLimit` changes it later.
   */
  constructor(options: { shortLimit?: number } = {}) {
    super();
    if (options.shortLimit !== undefined) this.rateLimit.set(options.shortLimit);
  }

  protected crashed(message: string): Reply {
    return error(500, 'INTERNAL_SERVER_ERROR', message);
  }

  protected endpoints() {
    return { auth: `${this.url}/oauth2/authorization`, token: `${this.url}/v2/oauth2/token` };
  }

  protected override keyOf(user: SimulatedUser): number {
    return Number(user.providerUserId);
  }

  /**
   * A Polar account with `days` days of data ending at `now`. `registeredAt` (simulator only) plays a
   * user our client registered earlier: registration answers 409 and exercises uploaded since then
   * are listed. Without it the user is registered by POST /v3/users, and only exercises uploaded
   * after that are listed (as Polar documents), so a fresh user's backfill has no workouts.
   */
  createUser(options: { days: number; now: Date; registeredAt?: Date; continuousHeartRate?: boolean }): SimulatedUser {
    const id = (this.nextUserId += 7);
    const n = this.accounts.size + 1;
    // Users east and west of UTC, so local days and UTC days differ.
    this.accounts.set(id, seedAccount(id, n % 2 ? 180 : -300, options.days, options.now, n * 7919, options.registeredAt ? options.registeredAt.getTime() : null, options.continuousHeartRate !== false));
    return { providerUserId: String(id) };
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countRecords(this.account(user), from, to, Date.now());
  }

  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    const event = EVENTS[resource];
    const t = at.getTime();
    const r = rng(t % 100_000);
    const payload = (extra: Record<string, unknown>) => ({ event, user_id: a.userId, ...extra, timestamp: new Date().toISOString().slice(0, 19) + 'Z' });
    if (event === 'EXERCISE') {
      const e = exercise(a, t - 45 * 60_000, 40, r);
      a.exercises.push(e);
      a.lastEvent.set(event, payload({ entity_id: e.doc.id, url: `https://www.polaraccesslink.com/v3/exercises/${String(e.doc.id)}` }));
      return [String(e.doc.id)];
    }
    const day = localDay(t, a.offsetMin);
    if (event === 'SLEEP') {
      a.nights = a.nights.filter((n) => n.date !== day);
      a.nights.push(night(a, day, r));
      a.lastEvent.set(event, payload({ date: day, url: `https://www.polaraccesslink.com/v3/users/sleep/${day}` }));
      return [`sleep:${day}`];
    }
    if (event === 'ACTIVITY_SUMMARY') {
      const d = activity(a, day, Math.max(t, Date.now()), r);
      a.activities = a.activities.filter((x) => x.localDay !== day);
      a.activities.push(d);
      a.lastEvent.set(event, payload({ date: day, url: `https://www.polaraccesslink.com/v3/users/activities/${day}` }));
      return [`activity:${String(d.doc.start_time).slice(0, 10)}`];
    }
    if (event === 'CONTINUOUS_HEART_RATE') {
      const h = a.heart.get(day) ?? heartDay(a, day, t - 5 * 60_000, r);
      h.samples.push({ heart_rate: 72, sample_time: localClock(t, a.offsetMin).slice(11, 19) });
      a.heart.set(day, h);
      a.lastEvent.set(event, payload({ date: day, url: `https://www.polaraccesslink.com/v3/users/continuous-heart-rate/${day}` }));
      return [`continuous_heart_rate:${day}`];
    }
    if (event === 'PHYSICAL_INFO') {
      const p = physicalInfo(a, t, r);
      a.physicalPending.push(p);
      a.physicalAll.push(p);
      return [`physical_info:${p.id}`];
    }
    throw new Error(`Polar simulator has no resource ${resource}`);
  }

  /** The documented payload of the last addData, signed with the webhook's secret, POSTed to `webhookUrl`. */
  async notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.webhooks.deliver(this.lastPayload(user, resource), undefined, webhookUrl);
  }

  async notifyForged(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.webhooks.deliver(this.lastPayload(user, resource), 'not-the-signature-secret', webhookUrl);
  }

  private lastPayload(user: SimulatedUser, resource: string) {
    const event = EVENTS[resource];
    const last = this.account(user).lastEvent.get(event);
    if (!last) throw new Error(`Polar sends no ${resource} notification before addData (physical info never has one)`);
    return last;
  }

  /** The user has not accepted (or withdrew) Polar's mandatory consents: every user route answers 403. */
  setConsents(user: SimulatedUser, accepted: boolean): void {
    this.account(user).consentsMissing = !accepted;
  }

  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    const h = this.webhooks.held;
    return h ? [{ key: [...h.events].sort().join(','), callbackUrl: h.url }] : [];
  }

  /** The short-term limit (per `windowS`) from now on; undefined restores the documented one. */
  setRateLimit(shortLimit?: number, windowS = 900): void {
    this.rateLimit.set(shortLimit, windowS);
  }

  /** Every API request received (time, path, refused with 429 or not), for assertions. */
  requests(): readonly { at: number; method: string; path: string; limited: boolean }[] {
    return this.rateLimit.arrivals;
  }

  /** The next `count` de-registrations (`DELETE /v3/users/{id}`) answer `status` (503, or 429 with the RateLimit headers). */
  failRevokes(count: number, status: number): void {
    this.users.failRevokes(count, status);
  }

  /** Another deployment sharing our client spent the short-term limit: the next request gets 429. */
  spendShortLimit(): void {
    this.rateLimit.spend();
  }

  /** When the short-term window ends (ms since epoch), for assertions about the silence until then. */
  shortWindowEndsAt(): number {
    return this.rateLimit.shortEndsAt();
  }

  /** Each data answer takes this long (a provider under load; the benchmark's history). */
  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  /** The webhook at our URL was replaced by someone else: a new id and a secret we never saw. */
  replaceWebhookElsewhere(): void {
    this.webhooks.recreate();
  }

  /** Whether our client has the user registered (simulator only, for assertions). */
  isRegistered(user: SimulatedUser): boolean {
    return this.account(user).registeredAt !== null;
  }

  protected async handle(req: IncomingMessage): Promise<Reply> {
    const url = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const headers = req.headers as Record<string, string | undefined>;
    const body = await readBody(req);
    const path = url.pathname;
    if (path.startsWith('/v3/')) {
      const limit = this.rateLimit.count(method, path);
      if (limit.limited) return error(429, 'TOO_MANY_REQUESTS', 'Rate limit exceeded', limit.headers);
      const reply = await this.route(method, url, headers, body);
      return { ...reply, headers: { ...limit.headers, ...(reply.headers ?? {}) } };
    }
    return this.route(method, url, headers, body);
  }

  private async route(method: string, url: URL, headers: Record<string, string | undefined>, body: string): Promise<Reply> {
    const path = url.pathname;
    if (path === '/oauth2/authorization') return this.authorizePage(method, url, body);
    if (path === '/v2/oauth2/token' && method === 'POST') return this.auth.token(new URLSearchParams(body), headers.authorization);
    if (path.startsWith('/v3/webhooks') || path === '/v3/notifications') {
      if (!this.auth.isClient(headers.authorization)) return error(401, 'UNAUTHORIZED', 'Client credentials required');
      if (path === '/v3/notifications') return { status: 204 };
      return (await this.webhooks.route(method, path, body)) ?? error(404, 'NOT_FOUND', 'Not found');
    }
    if (!path.startsWith('/v3/')) return error(404, 'NOT_FOUND', 'Not found');
    const who = this.auth.holder(headers.authorization);
    if (!who.valid || who.userId === undefined) return error(401, 'UNAUTHORIZED', 'Unauthorized');
    const a = this.accounts.get(who.userId)!;
    if (path === '/v3/users' && method === 'POST') return this.users.register(a, body);
    const user = /^\/v3\/users\/(\d+)$/.exec(path);
    if (user) return this.users.userRoute(a, method, Number(user[1]), who.token!);
    return this.data(a, method, url);
  }

  /**
   * A user data route, after the scripted failures. A user not registered with our client is refused
   * with 403: the documents say registration must come first but not what Polar answers otherwise.
   */
  private async data(a: PolarAccount, method: string, url: URL): Promise<Reply> {
    this.dataCalls.add(a.userId);
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    const scripted = this.faults.take();
    if (scripted) {
      const { status, retryAfterS } = scripted;
      if (status === 'garbage') return { status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id": "2AC3' };
      if (status === 429) {
        const after = retryAfterS ?? 60;
        // Polar's documented headers ("short term, long term"); Retry-After as the simulator interface asks.
        return error(429, 'TOO_MANY_REQUESTS', 'Rate limit exceeded', { 'ratelimit-usage': '520, 900', 'ratelimit-limit': '520, 5100', 'ratelimit-reset': `${after}, ${after + 80_000}`, 'retry-after': String(after) });
      }
      return { status, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Unavailable</body></html>' };
    }
    if (a.consentsMissing) return error(403, 'FORBIDDEN', 'User has not accepted all mandatory consents.');
    if (a.registeredAt === null) return error(403, 'FORBIDDEN', 'User is not registered to partner.');
    return this.api.route(a, method, url.pathname, url.searchParams) ?? error(404, 'NOT_FOUND', 'Not found');
  }

  /** The authorization form for a browser (GET) and its Allow/Deny (POST): a 302 to the redirect. */
  private authorizePage(method: string, url: URL, body: string): Reply {
    return this.consentRoute(method, url, body, {
      action: '/oauth2/authorization', title: 'Polar Flow – authorize', heading: 'Allow access to your Polar data?',
      describe: (who) => `Signed in as Polar user ${who}. Scope: ${escapeHtml(url.searchParams.get('scope') ?? 'accesslink.read_all')}`,
    }, () => error(400, 'BAD_REQUEST', 'No browser user set'));
  }
}

