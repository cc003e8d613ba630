/**
 * A simulated WHOOP (developer API v2) on a loopback port, written from WHOOP's public
 * documentation: OAuth 2.0 consent and token URL with rotating refresh tokens, the v2 data routes
 * with `nextToken` pages and the objects by id, `DELETE /v2/user/access`, signed webhooks (forged,
 * retried late and repeated ones too),
 * and the failures WHOOP documents (401, 429 with X-RateLimit-* headers, 5xx). Webhooks are set in
 * WHOOP's dashboard, so the simulator holds no subscriptions. See whoop-sim-*.ts for each part.
 */
import type { IncomingMessage } from 'node:http';
import { SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { CallCounter } from '../../../../test/simulators/kit/sim-faults';
import { escapeHtml, readBody } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { dataRoute, failure, scopeFor, SimReply } from './whoop-sim-api';
import { WhoopAuthServer } from './whoop-sim-auth';
import { countRecords, editSleep, Obj, recoveryObj, rng, seedAccount, sleepObj, WhoopAccount, workoutObj } from './whoop-sim-data';
import { deliver, Delivery, event, post, signedDelivery } from './whoop-sim-webhooks';

/** Resources with webhooks (WHOOP has none for cycles or body measurements). */
const NOTIFIED = ['sleep', 'workout', 'recovery'];

export class WhoopSimulator extends SimulatorBase<WhoopAccount> implements ProviderSimulator {
  readonly type = 'whoop';
  protected readonly label = 'WHOOP';
  protected readonly client = { id: 'whoop-sim-client', secret: 'whoop-sim-secret' };
  protected readonly auth = new WhoopAuthServer(this.client);
  /** GETs of one object by its id (`/v2/activity/<type>/{id}`, `/v2/cycle/{id}…`), keyed `<user>:<id>`. */
  private readonly objectCalls = new CallCounter<string>();
  private lastDelivery?: Delivery;
  private nextUserId = 10_129;

  protected crashed(message: string): SimReply {
    return failure(500, message);
  }

  protected endpoints() {
    return { auth: `${this.url}/oauth/oauth2/auth`, token: `${this.url}/oauth/oauth2/token`, api: `${this.url}/developer` };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const userId = this.nextUserId++;
    const n = this.accounts.size + 1;
    // Members east and west of UTC, so local and UTC days differ.
    this.accounts.set(String(userId), seedAccount(userId, n % 2 ? -300 : 120, options.days, options.now, n * 7919));
    return { providerUserId: String(userId) };
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countRecords(this.account(user), from, to, Date.now());
  }

  /**
   * sleep: a nap ending at `at` (its own sleep, no recovery); workout: a 30-minute workout from
   * `at`; recovery: the latest recovery is scored again (returns its sleep's UUID, the recovery's
   * log_id); cycle: the current cycle's kilojoules grow; body_measurement: a new weight.
   */
  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    const r = rng(at.getTime() % 100_000);
    const t = at.getTime();
    const latest = (list: Obj[]) => [...list].sort((x, y) => Date.parse(String(y.start)) - Date.parse(String(x.start)))[0];
    let id: string;
    if (resource === 'sleep') {
      const cycle = latest(a.cycles);
      const nap = sleepObj(a, (cycle?.id as number) ?? 0, t - 30 * 60_000, t, true, r);
      a.sleeps.push(nap);
      id = String(nap.id);
    } else if (resource === 'workout') {
      // Created now, whatever its time: a workout may be logged days after it happened.
      const w: Obj = { ...workoutObj(a, t, 30, r, 0), created_at: new Date().toISOString(), updated_at: new Date().toISOString() };
      a.workouts.push(w);
      id = String(w.id);
    } else if (resource === 'recovery') {
      const cycle = latest(a.cycles);
      const i = a.recoveries.findIndex((x) => x.cycle_id === cycle?.id);
      if (!cycle || i < 0) throw new Error('WHOOP simulator: no recovery to update yet');
      a.recoveries[i] = { ...recoveryObj(a, cycle.id as number, { id: a.recoveries[i].sleep_id, end: new Date(t).toISOString() }, r) };
      id = String(a.recoveries[i].sleep_id);
      a.last.set(resource, id);
      // Wellstream's recovery record is keyed recovery:<sleep UUID> (the sleep record has the UUID).
      return [`recovery:${id}`];
    } else if (resource === 'cycle') {
      const cycle = latest(a.cycles);
      if (!cycle) throw new Error('WHOOP simulator: no cycle yet');
      const score = cycle.score as { kilojoule: number };
      score.kilojoule = Math.round((score.kilojoule + 500) * 1000) / 1000;
      cycle.updated_at = new Date(t).toISOString();
      id = String(cycle.id);
    } else if (resource === 'body_measurement') {
      a.body = { ...(a.body ?? { height_meter: 1.8, max_heart_rate: 195 }), weight_kilogram: Math.round(r(60, 95) * 1e4) / 1e4 };
      id = `body_measurement:${new Date(Date.now()).toISOString().slice(0, 10)}`;
    } else {
      throw new Error(`WHOOP simulator has no resource ${resource}`);
    }
    a.last.set(resource, id);
    return [id];
  }

  /** `<resource>.updated` for the last addData of `resource`, signed as WHOOP signs. */
  async notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return this.send(signedDelivery(webhookUrl, this.event(user, resource, 'updated'), this.client.secret));
  }

  async notifyForged(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return deliver(webhookUrl, this.event(user, resource, 'updated'), 'not-the-client-secret');
  }

  /**
   * WHOOP's retry of a delivery whose first attempt got no 2XX (an outage on our side): correctly
   * signed, its timestamp `ageMs` in the past. WHOOP retries "five times over about one hour".
   */
  async notifyRetry(webhookUrl: string, user: SimulatedUser, resource: string, ageMs: number): Promise<number> {
    return this.send(signedDelivery(webhookUrl, this.event(user, resource, 'updated'), this.client.secret, Date.now() - ageMs));
  }

  /** The last delivery once more, byte for byte (same trace_id, timestamp and signature): WHOOP's duplicate. */
  async redeliver(): Promise<number> {
    if (!this.lastDelivery) throw new Error('WHOOP simulator: nothing delivered yet');
    return post(this.lastDelivery);
  }

  /** How many times `id` was read by id (the object routes), for `user`. */
  objectFetches(user: SimulatedUser, id: string): number {
    return this.objectCalls.get(`${user.providerUserId}:${id}`);
  }

  /**
   * A member edits an old object now: the night's sleep that started nearest `at` gets a later wake
   * time (WHOOP's webhook page tests webhooks by "edit a previous sleep"), and its recovery is
   * scored again. notify() then announces `sleep.updated` or `recovery.updated` (v2: the sleep's
   * UUID for both). A workout is logged late: addData with a past `at`. Returns the log_ids whose
   * records change: the sleep's and its recovery's.
   */
  editData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    if (resource === 'workout') return this.addData(user, resource, at);
    if (resource !== 'sleep' && resource !== 'recovery') throw new Error(`WHOOP simulator cannot edit ${resource}`);
    return editSleep(a, at);
  }

  private async send(d: Delivery): Promise<number> {
    this.lastDelivery = d;
    return post(d);
  }

  /**
   * Deletes the object of the last addData of `resource` and sends `<resource>.deleted`. Deleting
   * a sleep deletes its recovery too (WHOOP: "a recovery is deleted when its associated sleep is
   * deleted"), announced by its own `recovery.deleted`. Resolves to the statuses received.
   */
  async notifyDeleted(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number[]> {
    const a = this.account(user);
    const e = this.event(user, resource, 'deleted');
    const id = String(e.id);
    const statuses: number[] = [];
    if (resource === 'workout') a.workouts = a.workouts.filter((w) => w.id !== id);
    if (resource === 'sleep' || resource === 'recovery') {
      const hadRecovery = a.recoveries.some((r) => r.sleep_id === id);
      a.sleeps = a.sleeps.filter((s) => s.id !== id);
      a.recoveries = a.recoveries.filter((r) => r.sleep_id !== id);
      statuses.push(await deliver(webhookUrl, event(a.userId, id, 'sleep.deleted'), this.client.secret));
      if (hadRecovery) statuses.push(await deliver(webhookUrl, event(a.userId, id, 'recovery.deleted'), this.client.secret));
      return statuses;
    }
    statuses.push(await deliver(webhookUrl, e, this.client.secret));
    return statuses;
  }

  private event(user: SimulatedUser, resource: string, action: 'updated' | 'deleted') {
    const a = this.account(user);
    if (!NOTIFIED.includes(resource)) throw new Error(`WHOOP sends no webhooks for ${resource}`);
    const id = a.last.get(resource);
    if (!id) throw new Error(`WHOOP simulator: addData(${resource}) first`);
    if (!this.auth.authorized(user.providerUserId)) throw new Error('WHOOP sends no webhooks for a user whose access was revoked');
    return event(a.userId, id, `${resource}.${action}`);
  }

  /** WHOOP's webhook URL lives in its dashboard: there are no subscriptions to hold. */
  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return [];
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    const authorization = req.headers.authorization;
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    if (url.pathname === '/oauth/oauth2/auth') return this.authorizePage(method, url, body);
    if (url.pathname === '/oauth/oauth2/token' && method === 'POST') {
      if (!/application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) return failure(400, 'the token request must be form-encoded');
      return this.auth.token(new URLSearchParams(body));
    }
    if (!url.pathname.startsWith('/developer/')) return failure(404, 'Not Found');
    const path = url.pathname.slice('/developer'.length);
    if (path === '/v2/user/access' && method === 'DELETE') return this.auth.revokeAccess(authorization);
    return this.data(method, path, url.searchParams, authorization);
  }

  private data(method: string, path: string, params: URLSearchParams, authorization: string | undefined): SimReply {
    const who = this.auth.holder(authorization);
    if (who.userId) this.dataCalls.add(who.userId);
    const byId = /^\/v2\/(?:activity\/(?:sleep|workout)|cycle)\/([^/]+)/.exec(path);
    if (who.userId && byId) this.objectCalls.add(`${who.userId}:${byId[1]}`);
    const scripted = this.faults.take();
    if (scripted) {
      const { status, retryAfterS } = scripted;
      if (status === 'garbage') return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"records": [{"id": "trunc' };
      if (status === 429) {
        // WHOOP's "API Rate Limiting" page: X-RateLimit-Limit/-Remaining/-Reset (seconds); no Retry-After is documented.
        return failure(429, 'Request rejected due to rate limiting', {
          'x-ratelimit-limit': '100, 100;window=60, 10000;window=86400',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(retryAfterS ?? 60),
        });
      }
      return { status, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Unavailable</body></html>' };
    }
    if (!who.valid || !who.userId) return failure(401, 'Invalid authorization');
    const scope = scopeFor(path);
    // WHOOP documents no status for a scope the user did not grant; the simulator answers 403.
    if (scope && !who.scopes.includes(scope)) return failure(403, `scope ${scope} not granted`);
    const headers = { 'x-ratelimit-limit': '100, 100;window=60, 10000;window=86400', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '60' };
    const reply = dataRoute(this.account({ providerUserId: who.userId }), method, path, params, Date.now()) ?? failure(404, 'Not Found');
    return { ...reply, headers: { ...headers, ...reply.headers } };
  }

  /** The consent page for a browser (GET) and its Allow/Deny form (POST): a 302 to the redirect. */
  private authorizePage(method: string, url: URL, body: string): SimReply {
    return this.consentRoute(method, url, body, {
      action: '/oauth/oauth2/auth', title: 'WHOOP – authorize', heading: 'Allow access to your WHOOP data?',
      describe: (who) => `Signed in as WHOOP member ${who}. Requested: ${escapeHtml(url.searchParams.get('scope') ?? '')}`,
    }, () => failure(400, 'No browser user set'));
  }
}
