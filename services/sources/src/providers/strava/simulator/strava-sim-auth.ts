/**
 * The Strava simulator's OAuth2 server, after developers.strava.com/docs/authentication: the consent
 * step (redirect with `state`, `code` and the accepted comma-separated `scope`, or
 * `error=access_denied`), the token URL (authorization_code and refresh_token grants with
 * client_id/client_secret in the form; the code answer carries the `athlete`), six-hour access
 * tokens, refresh as documented ("if the application has an access token for the user that expires
 * in more than one hour, the existing access token will be returned"; a new access token comes with
 * a new refresh token and the older one stops working), and `POST /oauth/deauthorize`. Refusals use
 * Strava's Fault body (`{message, errors: [{resource, field, code}]}`) with status 400.
 */
import { randomBytes } from 'node:crypto';
import { TokenCallCounts } from '../../../../test/simulators/kit/sim-oauth';
import { wireJson, StravaAccount } from './strava-sim-data';

import type { SimReply } from '../../../../test/simulators/kit/sim-server';

export type { SimReply };

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): SimReply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: wireJson(value),
});

/** Strava's Fault. */
export const fault = (status: number, message: string, errors: { resource: string; field: string; code: string }[] = [], headers: Record<string, string> = {}) =>
  json(status, { message, errors }, headers);

export const STRAVA_SCOPES = ['read', 'read_all', 'profile:read_all', 'profile:write', 'activity:read', 'activity:read_all', 'activity:write'];
const ACCESS_TTL_S = 21_600;
const CODE_TTL_MS = 10 * 60_000;

interface Grant {
  athleteId: string;
  scope: string;
  revoked: boolean;
  access?: string;
  refresh?: string;
}

const token = () => randomBytes(20).toString('hex');

export class StravaAuthServer {
  private readonly grants = new Map<string, Grant>();
  private readonly codes = new Map<string, { grantId: string; expiresAt: number }>();
  private readonly access = new Map<string, { grantId: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, string>();
  readonly counts = new TokenCallCounts<string>();

  constructor(
    private readonly client: { id: string; secret: string },
    private readonly accountOf: (athleteId: string) => StravaAccount,
  ) {}

  count(athleteId: string) {
    return this.counts.of(athleteId);
  }

  /**
   * Validates an authorize URL as Strava's page would and returns where the browser goes. Throws on a
   * URL Strava would refuse. `unticked`: the boxes the athlete cleared ("A user can opt out of the
   * scopes requested"). Asked for activity:read_all, the page shows "View data about your activities"
   * and "View data about your private activities" (support.strava.com, "App Authorization
   * Settings"): clearing only the second leaves activity:read. With every box cleared the athlete
   * still authorizes the app, with `read` (the public profile) alone.
   */
  consent(authorizeUrl: string, athleteId: string, decision: 'allow' | 'deny', unticked: string[] = []): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    if (url.pathname !== '/oauth/authorize') throw new Error(`not Strava's authorize path: ${url.pathname}`);
    if (p.get('client_id') !== this.client.id) throw new Error('unknown client_id');
    if (p.get('response_type') !== 'code') throw new Error('response_type must be code');
    const redirect = p.get('redirect_uri');
    if (!redirect || !/^https?:\/\//.test(redirect)) throw new Error('redirect_uri missing or not a URL');
    const prompt = p.get('approval_prompt');
    if (prompt !== null && prompt !== 'force' && prompt !== 'auto') throw new Error('approval_prompt must be force or auto');
    const scope = p.get('scope');
    if (!scope) throw new Error('scope is required (comma-delimited)');
    const scopes = scope.split(',');
    const unknown = scopes.filter((s) => !STRAVA_SCOPES.includes(s));
    if (unknown.length) throw new Error(`unknown scope ${unknown.join(',')} (Strava's scopes are comma-delimited)`);
    const back = new URL(redirect);
    const state = p.get('state');
    if (state !== null) back.searchParams.set('state', state);
    if (decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
      return back.toString();
    }
    let accepted = scopes.filter((s) => !unticked.includes(s));
    if (scopes.includes('activity:read_all') && unticked.includes('activity:read_all') && !unticked.includes('activity:read') && !accepted.includes('activity:read')) accepted.push('activity:read');
    if (accepted.length === 0) accepted = ['read'];
    const grantId = token();
    this.grants.set(grantId, { athleteId, scope: accepted.join(','), revoked: false });
    const code = token();
    this.codes.set(code, { grantId, expiresAt: Date.now() + CODE_TTL_MS });
    back.searchParams.set('code', code);
    // "the URL query string will include an authorization code and the scope accepted by the user"
    back.searchParams.set('scope', accepted.join(','));
    return back.toString();
  }

  private issue(grant: Grant, grantId: string) {
    if (grant.access) this.access.delete(grant.access);
    if (grant.refresh) this.refreshTokens.delete(grant.refresh);
    grant.access = token();
    grant.refresh = token();
    const expiresAt = Date.now() + ACCESS_TTL_S * 1000;
    this.access.set(grant.access, { grantId, expiresAt });
    this.refreshTokens.set(grant.refresh, grantId);
    return { token_type: 'Bearer', expires_at: Math.floor(expiresAt / 1000), expires_in: ACCESS_TTL_S, refresh_token: grant.refresh, access_token: grant.access };
  }

  /** POST /oauth/token (also /api/v3/oauth/token) with a form body. */
  token(form: URLSearchParams): SimReply {
    if (form.get('client_id') !== this.client.id) return fault(400, 'Bad Request', [{ resource: 'Application', field: 'client_id', code: 'invalid' }]);
    if (form.get('client_secret') !== this.client.secret) return fault(400, 'Bad Request', [{ resource: 'Application', field: 'client_secret', code: 'invalid' }]);
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? ''); // single use
      const grant = code && this.grants.get(code.grantId);
      if (!code || !grant || grant.revoked || code.expiresAt < Date.now()) return fault(400, 'Bad Request', [{ resource: 'AuthorizationCode', field: 'code', code: 'invalid' }]);
      this.count(grant.athleteId).tokenExchanges++;
      const a = this.accountOf(grant.athleteId);
      return json(200, { ...this.issue(grant, code.grantId), athlete: { id: a.athleteId, username: null, resource_state: 2, firstname: a.firstname, lastname: 'Sim', city: '', state: '', country: null, sex: null, premium: false, summit: false } });
    }
    if (grantType === 'refresh_token') {
      const grantId = this.refreshTokens.get(form.get('refresh_token') ?? '');
      const grant = grantId ? this.grants.get(grantId) : undefined;
      if (grant) this.count(grant.athleteId).refreshes++;
      if (!grantId || !grant || grant.revoked) return fault(400, 'Bad Request', [{ resource: 'RefreshToken', field: 'refresh_token', code: 'invalid' }]);
      const current = grant.access ? this.access.get(grant.access) : undefined;
      if (current && current.expiresAt - Date.now() > 3_600_000) {
        // More than an hour left: the existing tokens come back.
        return json(200, { token_type: 'Bearer', access_token: grant.access, expires_at: Math.floor(current.expiresAt / 1000), expires_in: Math.floor((current.expiresAt - Date.now()) / 1000), refresh_token: grant.refresh });
      }
      return json(200, this.issue(grant, grantId));
    }
    return fault(400, 'Bad Request', [{ resource: 'Application', field: 'grant_type', code: 'invalid' }]);
  }

  /** POST /oauth/deauthorize with access_token (form, query or bearer): every token of the grant stops working. */
  deauthorize(accessToken: string | null): SimReply {
    const held = accessToken ? this.access.get(accessToken) : undefined;
    const grant = held && this.grants.get(held.grantId);
    if (!held || !grant || grant.revoked || held.expiresAt <= Date.now()) return fault(401, 'Authorization Error', [{ resource: 'Athlete', field: 'access_token', code: 'invalid' }]);
    this.count(grant.athleteId).revokes++;
    grant.revoked = true;
    return json(200, { access_token: accessToken });
  }

  /** The athlete and scope behind a bearer token, whether or not it still works (so refused calls are counted). */
  holder(authorization: string | undefined): { athleteId?: string; scope?: string; valid: boolean } {
    const t = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    const held = this.access.get(t);
    const grant = held && this.grants.get(held.grantId);
    if (!held || !grant) return { valid: false };
    return { athleteId: grant.athleteId, scope: grant.scope, valid: !grant.revoked && held.expiresAt > Date.now() };
  }

  expireAccessTokens(athleteId: string): void {
    for (const held of this.access.values()) if (this.grants.get(held.grantId)?.athleteId === athleteId) held.expiresAt = 0;
  }

  revokeGrants(athleteId: string): void {
    for (const g of this.grants.values()) if (g.athleteId === athleteId) g.revoked = true;
  }
}
