/**
 * A simulated Oura (API v2) on a loopback port, written from Oura's public documentation: OAuth2
 * consent and token URL, the usercollection data routes with next_token pages, the webhook
 * subscription routes with their verification GET, signed notifications, and the failures Oura
 * documents (401 for an expired token, 429 with Retry-After, 5xx). See oura-sim-*.ts for each part.
 */
import type { IncomingMessage } from 'node:http';
import { SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { escapeHtml, readBody } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { dataRoute, problem, SimReply } from './oura-sim-api';
import { OuraAuthServer } from './oura-sim-auth';
import { countRecords, localDay, localIso, OuraAccount, rng, seedAccount, sleepDoc, activityDoc, workoutDoc } from './oura-sim-data';
import { OuraWebhooks } from './oura-sim-webhooks';

export interface OuraSimulatorOptions {
  /** Documents per page (small by default, so tests cross pages). */
  documentPageSize?: number;
  heartratePageSize?: number;
  subscriptionLifetimeMs?: number;
}

export class OuraSimulator extends SimulatorBase<OuraAccount> implements ProviderSimulator {
  readonly type = 'oura';
  protected readonly label = 'Oura';
  protected readonly client = { id: 'oura-sim-client', secret: 'oura-sim-secret' };
  protected readonly auth = new OuraAuthServer(this.client);
  private readonly webhooks: OuraWebhooks;
  private readonly sizes: { documents: number; heartrate: number };

  constructor(options: OuraSimulatorOptions = {}) {
    super();
    this.sizes = { documents: options.documentPageSize ?? 5, heartrate: options.heartratePageSize ?? 100 };
    this.webhooks = new OuraWebhooks(this.client, options.subscriptionLifetimeMs ?? 30 * 86_400_000);
  }

  protected crashed(message: string): SimReply {
    return problem(500, 'Internal Server Error', message);
  }

  protected endpoints() {
    return { auth: `${this.url}/oauth/authorize`, token: `${this.url}/oauth/token` };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const n = this.accounts.size + 1;
    const id = `oura-user-${n}-${Math.floor(Math.random() * 1e9).toString(36)}`;
    // Users east and west of UTC, so local days and UTC days differ.
    this.accounts.set(id, seedAccount(id, n % 2 ? 120 : -300, options.days, options.now, n * 7919));
    return { providerUserId: id };
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countRecords(this.account(user), from, to);
  }

  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    const r = rng(at.getTime() % 100_000);
    const t = at.getTime();
    if (resource === 'heartrate') {
      const slot = Math.floor(t / 300_000) * 300_000;
      a.heartrate.push({ at: slot, bpm: 72, source: 'awake' });
      return [`heartrate:${new Date(slot).toISOString().slice(0, 10)}`];
    }
    let doc;
    let eventType: 'create' | 'update' = 'create';
    if (resource === 'daily_activity') {
      const day = localDay(t, a.offsetMin);
      const i = a.activity.findIndex((d) => d.day === day);
      doc = i >= 0 ? { ...activityDoc(day, a.offsetMin, r), id: a.activity[i].id } : activityDoc(day, a.offsetMin, r);
      if (i >= 0) [a.activity[i], eventType] = [doc, 'update'];
      else a.activity.push(doc);
    } else if (resource === 'sleep') {
      a.sleeps.push((doc = sleepDoc(t - 7 * 3_600_000, t, a.offsetMin, r)));
    } else if (resource === 'workout') {
      a.workouts.push((doc = workoutDoc(t, 30, a.offsetMin, r, a.workouts.length)));
    } else {
      throw new Error(`Oura simulator has no resource ${resource}`);
    }
    a.lastEvent.set(resource, { eventType, objectId: doc.id, at: t });
    return [doc.id];
  }

  /** Oura notifies daily_activity, sleep and workout changes; heart rate is not a webhook data type. */
  async notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.webhooks.deliver(webhookUrl, this.notification(user, resource));
  }

  async notifyForged(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.webhooks.deliver(webhookUrl, this.notification(user, resource), 'not-the-client-secret');
  }

  private notification(user: SimulatedUser, resource: string) {
    const a = this.account(user);
    const last = a.lastEvent.get(resource);
    if (!last) throw new Error(`Oura sends no notification for ${resource} before addData (heartrate never has one)`);
    return { event_type: last.eventType, data_type: resource, object_id: last.objectId, event_time: localIso(last.at, 0), user_id: a.providerUserId };
  }

  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return [...this.webhooks.held.values()].map((s) => ({ key: `${s.data_type}:${s.event_type}`, callbackUrl: s.callback_url, expiresAt: s.expiration_time }));
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    const headers = req.headers as Record<string, string | undefined>;
    const body = await readBody(req);
    if (url.pathname === '/oauth/authorize') return this.authorizePage(req.method ?? 'GET', url, body);
    if (url.pathname === '/oauth/token' && req.method === 'POST') return this.auth.token(new URLSearchParams(body), headers.authorization);
    if (url.pathname === '/oauth/revoke') return this.auth.revoke(url.searchParams.get('access_token'));
    const hook = await this.webhooks.route(req.method ?? 'GET', url.pathname, headers, body);
    if (hook) return hook;
    if (url.pathname.startsWith('/v2/usercollection/') && req.method === 'GET') return this.data(url, headers.authorization);
    return problem(404, 'Not Found');
  }

  private data(url: URL, authorization: string | undefined): SimReply {
    const who = this.auth.holder(authorization);
    if (who.userId) this.dataCalls.add(who.userId);
    const scripted = this.faults.take();
    if (scripted) {
      const { status, retryAfterS } = scripted;
      if (status === 'garbage') return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data": [{"id": "trunc' };
      if (status === 429) {
        const after = String(retryAfterS ?? 60);
        return problem(429, 'Request Rate Limit Exceeded.', undefined, {
          'retry-after': after, 'x-ratelimit-limit': '5000', 'x-ratelimit-window': '300', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + Number(after)), 'x-ratelimit-tier': 'token',
        });
      }
      return { status, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Unavailable</body></html>' };
    }
    if (!who.valid || !who.userId) return problem(401, 'Unauthorized', 'Access token is expired, malformed or revoked.');
    return dataRoute(this.account({ providerUserId: who.userId }), url.pathname, url.searchParams, this.sizes) ?? problem(404, 'Not Found');
  }

  /** The consent page for a browser (GET) and its Allow/Deny form (POST): a 302 to the redirect. */
  private authorizePage(method: string, url: URL, body: string): SimReply {
    return this.consentRoute(method, url, body, {
      action: '/oauth/authorize', title: 'Oura – authorize', heading: 'Allow access to your Oura data?',
      describe: (who) => `Signed in as ${who}. Requested: ${escapeHtml(url.searchParams.get('scope') ?? 'all scopes')}`,
    }, () => problem(400, 'No browser user set'));
  }
}
