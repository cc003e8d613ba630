/**
 * A Withings simulator for the provider simulator suite: a real HTTP server on 127.0.0.1 that answers the
 * documented requests (authorize2 consent page, v2/oauth2 requesttoken and revoke, v2/signature
 * getnonce, measure, v2/measure, v2/sleep, notify) with the documented `{status, body}` envelope,
 * and sends form-encoded notifications. Written from the Withings API reference, not the adapter.
 * Faults: HTTP 429 with Retry-After, 5xx, garbage, and Withings' status-in-200 errors.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SimAuthServer, SimulatorBase } from '../../../../test/simulators/kit/sim-base';
import { escapeHtml, readBody, SimReply } from '../../../../test/simulators/kit/sim-server';
import type { ProviderSimulator, SimulatedUser } from '../../../../test/simulators/provider-simulator';
import { answerData } from './withings-sim-api';
import { activityFor, bloodPressureGroup, intradayDay, seedAccount, SimAccount, sleepFrom, weightGroup, workoutAt } from './withings-sim-data';
import { countExpected } from './withings-sim-expected';
import { sendNotification, SimNotify } from './withings-sim-notify';
import { Envelope, SimOAuth } from './withings-sim-oauth';

type Stats = { tokenExchanges: number; refreshes: number; revokes: number; dataRequests: number };
type Fault = { status: number | 'garbage'; retryAfterS?: number; withingsStatus?: number; error?: string };

const AUTHORIZE_PATH = '/oauth2_user/authorize2';
const DATA_PATHS = ['/measure', '/v2/measure', '/v2/sleep'];
/** resource → the appli of its notification category. */
const RESOURCE_APPLI: Record<string, number> = { getmeas: 1, getactivity: 16, getworkouts: 16, getintradayactivity: 16, getsummary: 44 };

const zero = (): Stats => ({ tokenExchanges: 0, refreshes: 0, revokes: 0, dataRequests: 0 });

export class WithingsSimulator extends SimulatorBase<SimAccount> implements ProviderSimulator {
  readonly type = 'withings';
  protected readonly label = 'Withings';
  readonly clientId = 'withings-sim-client';
  readonly clientSecret = 'withings-sim-secret';
  protected readonly client = { id: this.clientId, secret: this.clientSecret };
  private readonly oauth = new SimOAuth(this.clientId, this.clientSecret);
  private readonly notifyService = new SimNotify();
  private readonly perUser = new Map<string, Stats>();
  /** Withings counts every call, also those no user could be told from (a refused token): `stats()` without a user. */
  private readonly total = zero();
  /** Withings' own faults: besides HTTP ones, its status-in-200 errors (`failNextWithStatus`). */
  private readonly withingsFaults: Fault[] = [];
  private readonly nonces = new Set<string>();
  private readonly lastAdded = new Map<string, { from: number; to: number }>();
  private nextUser = 0;
  protected readonly auth: SimAuthServer<string> = {
    counts: { get: (id) => this.perUser.get(id) },
    consent: (authorizeUrl, id, decision) => this.oauth.consent(authorizeUrl, `${this.url}${AUTHORIZE_PATH}`, id, decision),
    expireAccessTokens: (id) => this.oauth.expireAll(id),
    revokeGrants: (id) => {
      this.oauth.revokedUsers.add(id);
      this.notifyService.dropUser(id);
    },
  };

  protected crashed(message: string): SimReply {
    return text(500, message);
  }

  protected endpoints() {
    return { auth: `${this.url}${AUTHORIZE_PATH}`, token: `${this.url}/v2/oauth2` };
  }

  createUser(options: { days: number; now: Date }): SimulatedUser {
    const userid = String(36_300_000 + ++this.nextUser);
    this.accounts.set(userid, seedAccount(userid, this.nextUser * 7919, options.days, options.now));
    return { providerUserId: userid };
  }

  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>> {
    return countExpected(this.account(user), from, to);
  }

  addData(user: SimulatedUser, resource: string, at: Date): string[] {
    const a = this.account(user);
    const t = Math.floor(at.getTime() / 1000);
    const r = () => 0.5;
    const ids = ((): string[] => {
      switch (resource) {
        case 'getmeas':
          return [String(a.measures[a.measures.push(t % 2 ? weightGroup(t, r) : bloodPressureGroup(t, r)) - 1].grpid)];
        case 'getactivity': {
          const date = new Intl.DateTimeFormat('en-CA', { timeZone: a.timezone }).format(at);
          a.activities = [...a.activities.filter((x) => x.date !== date), activityFor(date, t, r)];
          return [`activity-${date}`];
        }
        case 'getworkouts':
          return [String(a.workouts[a.workouts.push(workoutAt(t, r)) - 1].id)];
        case 'getsummary':
          return [String(a.sleeps[a.sleeps.push(sleepFrom(t, r)) - 1].id)];
        case 'getintradayactivity': {
          const day = Math.floor(t / 86_400) * 86_400;
          intradayDay(a, day, day + 86_400, r);
          return [`intraday-${new Date(day * 1000).toISOString().slice(0, 10)}`];
        }
        default:
          throw new Error(`withings simulator: no resource ${resource}`);
      }
    })();
    this.lastAdded.set(`${user.providerUserId}:${resource}`, { from: t - 3600, to: t + 86_400 });
    return ids;
  }

  notify(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return sendNotification(webhookUrl, this.notificationFields(user.providerUserId, resource));
  }

  notifyForged(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number> {
    return sendNotification(webhookUrl, { ...this.notificationFields(user.providerUserId, resource), userid: '999999999' });
  }

  override failNext(count: number, status: number | 'garbage', retryAfterS?: number): void {
    for (let i = 0; i < count; i++) this.withingsFaults.push({ status, retryAfterS });
  }

  /** The next `count` data calls answer HTTP 200 with Withings' `{status, body: {}, error}` (e.g. 601, 2555, 401). */
  failNextWithStatus(count: number, withingsStatus: number, error = 'simulated'): void {
    for (let i = 0; i < count; i++) this.withingsFaults.push({ status: 200, withingsStatus, error });
  }

  override stats(user?: SimulatedUser): Stats {
    return { ...(user ? (this.perUser.get(user.providerUserId) ?? zero()) : this.total) };
  }

  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[] {
    return this.notifyService.subs.map((s) => ({ key: `${s.userid}:${s.appli}`, callbackUrl: s.callbackurl }));
  }

  private notificationFields(userid: string, resource: string): Record<string, string> {
    const appli = RESOURCE_APPLI[resource];
    if (!appli) throw new Error(`withings simulator: no notification for ${resource}`);
    const span = this.lastAdded.get(`${userid}:${resource}`) ?? { from: Math.floor(Date.now() / 1000) - 86_400, to: Math.floor(Date.now() / 1000) };
    const fields: Record<string, string> = { userid, appli: String(appli), startdate: String(span.from), enddate: String(span.to) };
    if (appli === 16) fields.date = new Date(span.from * 1000).toISOString().slice(0, 10);
    return fields;
  }

  private count(userid: string | undefined, key: keyof Stats): void {
    this.total[key]++;
    if (!userid) return;
    const s = this.perUser.get(userid) ?? zero();
    s[key]++;
    this.perUser.set(userid, s);
  }

  protected async handle(req: IncomingMessage): Promise<SimReply> {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await readBody(req);
    // Parameters come in the POST body (the code samples) or the query string (the reference lists them as query).
    const q = new URLSearchParams(url.searchParams);
    for (const [k, v] of new URLSearchParams(req.method === 'POST' ? raw : '')) q.set(k, v);
    if (url.pathname === AUTHORIZE_PATH) return this.authorizePage(req, url, q);
    if (url.pathname === '/v2/oauth2' && q.get('action') === 'requesttoken') {
      const { kind, userid, answer } = this.oauth.requestToken(q);
      if (kind !== 'none') this.count(userid, kind === 'code' ? 'tokenExchanges' : 'refreshes');
      return envelope(answer);
    }
    if (url.pathname === '/v2/signature' && q.get('action') === 'getnonce') return envelope(this.getnonce(q));
    if (url.pathname === '/v2/oauth2' && q.get('action') === 'revoke') return envelope(this.revokeAccess(q));
    const isData = DATA_PATHS.includes(url.pathname);
    if (!isData && url.pathname !== '/notify') return text(404, 'not found');
    const who = this.oauth.userOf(req.headers.authorization);
    if (isData) {
      this.count('userid' in who ? who.userid : undefined, 'dataRequests');
      const fault = this.withingsFaults.shift();
      if (fault) return this.fail(fault);
    }
    if (!('userid' in who)) return envelope({ status: who.status, body: {}, error: who.error });
    const account = this.accounts.get(who.userid)!;
    if (url.pathname === '/notify') return envelope(await this.notifyService.handle(who.userid, q));
    return envelope(answerData(account, url.pathname, q, Math.floor(Date.now() / 1000)));
  }

  private fail(f: Fault): SimReply {
    if (f.status === 'garbage') return text(200, '<html><body>502 Bad Gateway</body></html>', { 'content-type': 'text/html' });
    if (f.withingsStatus !== undefined) return envelope({ status: f.withingsStatus, body: {}, error: f.error });
    return text(f.status, 'simulated failure', f.status === 429 ? { 'retry-after': String(f.retryAfterS ?? 1) } : {});
  }

  private sign(values: Record<string, string>): string {
    const joined = Object.keys(values).sort().map((k) => values[k]).join(',');
    return createHmac('sha256', this.clientSecret).update(joined).digest('hex');
  }

  private getnonce(q: URLSearchParams): Envelope {
    const signed = { action: 'getnonce', client_id: q.get('client_id') ?? '', timestamp: q.get('timestamp') ?? '' };
    if (signed.client_id !== this.clientId || q.get('signature') !== this.sign(signed)) return { status: 503, body: {}, error: 'Invalid Params: invalid signature' };
    const nonce = createHmac('sha1', String(Math.random())).update(signed.timestamp).digest('hex');
    this.nonces.add(nonce);
    return { status: 0, body: { nonce } };
  }

  private revokeAccess(q: URLSearchParams): Envelope {
    const nonce = q.get('nonce') ?? '';
    const signed = { action: 'revoke', client_id: q.get('client_id') ?? '', nonce };
    if (!this.nonces.delete(nonce) || q.get('signature') !== this.sign(signed)) return { status: 503, body: {}, error: 'Invalid Params: invalid signature or nonce' };
    const userid = q.get('userid') ?? '';
    if (!this.accounts.has(userid)) return { status: 503, body: {}, error: 'Invalid Params: userid' };
    this.count(userid, 'revokes');
    this.revokeGrant({ providerUserId: userid });
    return { status: 0, body: {} };
  }

  private authorizePage(req: IncomingMessage, url: URL, q: URLSearchParams): SimReply {
    if (req.method === 'POST') {
      const target = q.get('authorize_url') ?? '';
      const user = this.browserUser;
      if (!user) return text(400, 'no browser user set');
      return text(302, '', { location: this.authorize(target, user, q.get('decision') === 'allow' ? 'allow' : 'deny') });
    }
    const authorizeUrl = url.toString();
    const hidden = `<input type="hidden" name="authorize_url" value="${escapeHtml(authorizeUrl)}">`;
    const page = `<!doctype html><html><body><h1>Withings (simulated)</h1><p>Allow this application to access ${escapeHtml(q.get('scope') ?? '')}?</p>
<form method="post" action="${AUTHORIZE_PATH}">${hidden}<button name="decision" value="allow">Allow</button></form>
<form method="post" action="${AUTHORIZE_PATH}">${hidden}<button name="decision" value="deny">Deny</button></form></body></html>`;
    return text(200, page, { 'content-type': 'text/html; charset=utf-8' });
  }
}

function text(status: number, body: string, headers: Record<string, string> = {}): SimReply {
  return { status, headers: { 'content-type': 'text/plain', ...headers }, body };
}

function envelope(e: Envelope): SimReply {
  return text(200, JSON.stringify(e), { 'content-type': 'application/json' });
}
