/**
 * A simulated Garmin Health API on a loopback port, written from Garmin's developer documents
 * (Start Guide, Health API, Activity API, OAuth2 PKCE Specification; see ../README.md): the OAuth
 * consent and token endpoints (garmin-sim-auth.ts), `user/id`, `user/permissions`, `DELETE
 * user/registration` followed by a deregistration notification, the asynchronous backfill (202,
 * 409 for a range asked already, 400 beyond 90 days or 30 for activities) whose data comes as pings,
 * pings whose callbackURL carries a pull token, and the pull answering the summaries that ping
 * named. With the endpoints set to Push, summaries go inline and a pull without a pull token answers
 * what was uploaded in its range (the documents are silent on pulls in push mode; README.md). The
 * user's permissions (Start Guide "User Permissions": ACTIVITY_EXPORT, HEALTH_EXPORT,
 * HISTORICAL_DATA_EXPORT) can be changed, which sends a `userPermissionsChange` notification, and
 * `user/permissions` answers them; a summary type whose permission is withdrawn answers 403. Our webhook is what the operator enters in Garmin's endpoint tool; the simulator takes it
 * from the redirect URI it sees at consent (`…/callback` → `…/webhook`).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { postToWebhook, SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { readBody, SimReply } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { GarminAuthServer } from './garmin-sim-auth';
import { activity, bodyComp, countRecords, GarminAccount, rng, seedAccount, SimSummary, SUMMARY_TYPES, SummaryType } from './garmin-sim-data';

const REST = '/wellness-api/rest';
const OFFSETS = [3600, -7 * 3600, 9 * 3600, 10.5 * 3600];
const json = (status: number, body: unknown): SimReply => ({ status, headers: { 'content-type': 'application/json;charset=UTF-8' }, body: JSON.stringify(body) });
const err = (status: number, message: string) => json(status, { errorMessage: message });
const ALL_PERMISSIONS = ['ACTIVITY_EXPORT', 'HEALTH_EXPORT', 'HISTORICAL_DATA_EXPORT'];
/** The permission each summary type needs (the Activity API's activities, the Health API's others). */
const permissionOf = (type: string) => (type === 'activities' ? 'ACTIVITY_EXPORT' : 'HEALTH_EXPORT');

export class GarminSimulator extends SimulatorBase<GarminAccount> implements ProviderSimulator {
  readonly type = 'garmin';
  protected readonly label = 'Garmin';
  protected readonly client = { id: 'garmin-sim-consumer-key', secret: 'garmin-sim-consumer-secret' };
  readonly auth = new GarminAuthServer(this.client);
  private readonly pullTokens = new Map<string, { userId: string; type: SummaryType; items: SimSummary[] }>();
  private readonly backfills = new Set<string>();
  /** Every backfill request accepted: [user, type, start s, end s]. */
  readonly backfillRequests: [string, string, number, number][] = [];
  private stopped = false;
  /** How the endpoint tool has the summary endpoints: Ping (a callbackURL) or Push (summaries inline). */
  endpointMode: 'ping' | 'push' = 'ping';
  private readonly permissions = new Map<string, string[]>();
  private readonly refused = new Map<string, number>();
  /** Calls to `user/permissions`, per user. */
  private readonly permissionAsks = new Map<string, number>();
  /** Pulls without a pull token (push mode), all users. */
  pushPulls = 0;
  /** Ping deliveries in flight (backfills answer at once and ping a moment later). */
  private readonly inFlight = new Set<Promise<unknown>>();

  override async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.inFlight]);
    await super.stop();
  }

  protected crashed(message: string): SimReply {
    return err(500, message);
  }

  protected endpoints() {
    return { auth: `${this.url}/oauth2Confirm`, token: `${this.url}/di-oauth2-service/oauth/token` };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const n = this.accounts.size + 1;
    const userId = `${randomBytes(12).toString('hex')}${n}`;
    this.accounts.set(userId, seedAccount(userId, OFFSETS[n % OFFSETS.length], options.days, options.now, n * 7919));
    return { providerUserId: userId };
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countRecords(this.account(user), from, to);
  }

  /** A new summary of `resource` at `at`, uploaded now (activities and body composition; others are daily). */
  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    const r = rng(a.summaries.length + 17);
    const atS = Math.floor(at.getTime() / 1000);
    const s = resource === 'bodyComps' ? bodyComp(a, atS, r) : activity(a, atS, r);
    s.uploadedAt = Math.floor(Date.now() / 1000);
    a.summaries.push(s);
    a.pending.push(s);
    return s.logIds;
  }

  /** The ping for what the user uploaded since the last one of that type. */
  async notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    const a = this.account(user);
    const type = resource as SummaryType;
    const items = a.pending.filter((s) => s.type === type);
    a.pending = a.pending.filter((s) => s.type !== type);
    return this.post(webhookUrl, this.pingBody(a.userId, type, items));
  }

  /** A ping naming the user whose callbackURL is not Garmin's: whoever sent it wants us to fetch their URL. */
  async notifyForged(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    const callbackURL = `http://127.0.0.1:9${REST}/${resource}?uploadStartTimeInSeconds=1700000000&uploadEndTimeInSeconds=1700000100&token=x`;
    return this.post(webhookUrl, { [resource]: [{ userId: user.providerUserId, callbackURL }] });
  }

  /** The push for what the user uploaded since the last one of that type: the summaries inline, each with its userId. */
  pushBody(user: SimulatedUser, resource: string): unknown {
    const a = this.account(user);
    const items = a.pending.filter((s) => s.type === resource);
    a.pending = a.pending.filter((s) => s.type !== resource);
    return { [resource]: items.map((s) => ({ userId: a.userId, ...s.body })) };
  }

  /** Calls to `user/permissions` made with this user's token. */
  permissionCalls(user: SimulatedUser): number {
    return this.permissionAsks.get(this.account(user).userId) ?? 0;
  }

  /** Summary pulls of this user refused for a permission not granted (403). */
  refusedPulls(user: SimulatedUser): number {
    return this.refused.get(this.account(user).userId) ?? 0;
  }

  /**
   * What the user shares before connecting (switches in their Garmin account; integrators note that
   * historical data is off unless the user turns it on): `user/permissions` answers it, no notification.
   */
  sharePermissions(user: SimulatedUser, permissions: string[]): void {
    this.permissions.set(this.account(user).userId, [...permissions]);
  }

  /** The user changes what they share in Garmin Connect: Garmin notifies the User Permissions endpoint. */
  async changePermissions(webhookUrl: string, user: SimulatedUser, permissions: string[]): Promise<number> {
    const userId = this.account(user).userId;
    this.permissions.set(userId, [...permissions]);
    const change = { userId, summaryId: `x${userId}-perm-${Date.now().toString(16)}`, permissions, changeTimeInSeconds: Math.floor(Date.now() / 1000) };
    return this.post(webhookUrl, { userPermissionsChange: [change] });
  }

  /** Any body posted to our webhook as Garmin would (JSON, no signature). */
  async post(webhookUrl: string, body: unknown): Promise<number> {
    return postToWebhook(webhookUrl, JSON.stringify(body), { 'content-type': 'application/json' });
  }

  subscriptions(): { key: string; callbackUrl: string }[] {
    return this.auth.webhookUrl ? SUMMARY_TYPES.map((key) => ({ key, callbackUrl: this.auth.webhookUrl! })) : [];
  }

  /** Resolves when every ping sent so far was answered. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** A ping body for `items`: their callbackURL carries a pull token naming exactly them. */
  private pingBody(userId: string, type: SummaryType, items: SimSummary[]): unknown {
    const token = randomBytes(12).toString('hex');
    this.pullTokens.set(token, { userId, type, items });
    const to = Math.max(...items.map((s) => s.uploadedAt), Math.floor(Date.now() / 1000)) + 1;
    // A pull's upload range is at most 24 hours.
    const from = Math.max(Math.min(...items.map((s) => s.uploadedAt), to - 1), to - 86_400);
    const callbackURL = `${this.url}${REST}/${type}?uploadStartTimeInSeconds=${from}&uploadEndTimeInSeconds=${to}&token=${token}`;
    return { [type]: [{ userId, callbackURL }] };
  }

  webhookMoved(webhookUrl: string): void {
    this.auth.webhookUrl = webhookUrl;
  }

  /**
   * Sends later, as Garmin does (the request that caused it has its answer first), to the
   * configured endpoint; "failed notifications retry with exponential backoff" (a delivery that
   * got no answer or a 5xx; Garmin keeps them seven days), here every 5 s at most, for five minutes.
   */
  private later(body: unknown): void {
    const p = (async () => {
      for (let attempt = 0, wait = 20; attempt < 70 && !this.stopped; attempt++, wait = Math.min(wait * 2 + 100, 5000)) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        const hook = this.auth.webhookUrl;
        if (!hook) return;
        const status = await this.post(hook, body).catch(() => 0);
        if (status > 0 && status < 500) return;
      }
    })();
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/oauth2Confirm') {
      const body = req.method === 'POST' ? await readBody(req) : '';
      return this.consentRoute(req.method ?? 'GET', url, body, { action: '/oauth2Confirm', title: 'Garmin Connect', heading: 'Share your Garmin data', describe: (who) => `Signed in as ${who}. Allow Wellstream to read your activities and health data?` }, () => err(400, 'not signed in'));
    }
    if (url.pathname === '/di-oauth2-service/oauth/token' && req.method === 'POST') return this.auth.token(new URLSearchParams(await readBody(req)));
    if (!url.pathname.startsWith(`${REST}/`)) return err(404, 'not found');
    const userId = this.auth.userOf(req.headers.authorization);
    if (!userId) return err(401, 'Unauthorized');
    const route = url.pathname.slice(REST.length + 1);
    if (route === 'user/id' && req.method === 'GET') return json(200, { userId });
    if (route === 'user/permissions' && req.method === 'GET') {
      this.permissionAsks.set(userId, (this.permissionAsks.get(userId) ?? 0) + 1);
      return json(200, this.permissions.get(userId) ?? ALL_PERMISSIONS);
    }
    if (route === 'user/registration' && req.method === 'DELETE') {
      this.auth.deregister(userId);
      this.later({ deregistrations: [{ userId }] });
      return { status: 204 };
    }
    if (req.method !== 'GET') return err(405, 'method not allowed');
    this.dataCalls.add(userId);
    const fault = this.faults.take();
    if (fault) {
      if (fault.status === 'garbage') return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Temporarily Unavailable</body>' };
      return { status: fault.status, headers: fault.retryAfterS !== undefined ? { 'retry-after': String(fault.retryAfterS) } : {}, body: '' };
    }
    const type = /^(?:backfill\/)?(\w+)$/.exec(route)?.[1] ?? '';
    if ((SUMMARY_TYPES as readonly string[]).includes(type) && !(this.permissions.get(userId) ?? ALL_PERMISSIONS).includes(permissionOf(type))) {
      this.refused.set(userId, (this.refused.get(userId) ?? 0) + 1);
      return err(403, 'the user has not granted this permission');
    }
    const backfill = /^backfill\/(\w+)$/.exec(route);
    if (backfill) return this.backfill(userId, backfill[1], url.searchParams);
    if ((SUMMARY_TYPES as readonly string[]).includes(route)) return this.pull(userId, route as SummaryType, url.searchParams);
    return err(404, 'not found');
  }

  private backfill(userId: string, type: string, q: URLSearchParams): SimReply {
    if (!(SUMMARY_TYPES as readonly string[]).includes(type)) return err(404, 'not found');
    const start = Number(q.get('summaryStartTimeInSeconds'));
    const end = Number(q.get('summaryEndTimeInSeconds'));
    if (!Number.isInteger(start) || !Number.isInteger(end) || end <= start) return err(400, 'summaryStartTimeInSeconds and summaryEndTimeInSeconds are required');
    if (end - start > (type === 'activities' ? 30 : 90) * 86_400) return err(400, 'time range exceeds the maximum');
    const key = `${userId}/${type}/${start}/${end}`;
    if (this.backfills.has(key)) return err(409, 'Duplicate backfill request');
    this.backfills.add(key);
    this.backfillRequests.push([userId, type, start, end]);
    const a = this.accounts.get(userId)!;
    const items = a.summaries.filter((s) => s.type === type && s.at >= start && s.at < end);
    if (items.length > 0) this.later(this.pingBody(userId, type as SummaryType, items));
    return { status: 202 };
  }

  private pull(userId: string, type: SummaryType, q: URLSearchParams): SimReply {
    const held = this.pullTokens.get(q.get('token') ?? '');
    const start = Number(q.get('uploadStartTimeInSeconds'));
    const end = Number(q.get('uploadEndTimeInSeconds'));
    if (!Number.isInteger(start) || !Number.isInteger(end) || end < start || end - start > 86_400) return err(400, 'uploadStartTimeInSeconds and uploadEndTimeInSeconds within 24 hours are required');
    if (this.endpointMode === 'push' && !q.has('token')) {
      // A push partner has no pull token: the pull answers what the user uploaded in the range.
      this.pushPulls++;
      return json(200, this.accounts.get(userId)!.summaries.filter((s) => s.type === type && s.uploadedAt >= start && s.uploadedAt <= end).map((s) => s.body));
    }
    // Pulls only answer a ping (its token), for that ping's user and summary type.
    if (!held || held.userId !== userId || held.type !== type) return err(400, 'invalid pull token');
    return json(200, held.items.map((s) => s.body));
  }
}
