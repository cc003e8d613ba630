/**
 * The simulator's OAuth 2.0 side, as the API reference documents it: the authorize2 consent
 * (response_type=code, client_id, redirect_uri, state, comma-separated scopes; no PKCE), codes valid
 * 30 seconds and once, the v2/oauth2 `requesttoken` action for authorization_code and refresh_token
 * answered in the `{status, body}` envelope, access tokens of 3 hours, and refresh-token rotation:
 * "Old refresh_token: Expires 8 hours after new issuance or once the new access_token is used".
 */
import { randomBytes } from 'node:crypto';

export const KNOWN_SCOPES = ['user.info', 'user.metrics', 'user.activity', 'user.sleepevents'];
const ACCESS_TTL_S = 10_800;
const OLD_REFRESH_GRACE_MS = 8 * 3600 * 1000;

interface Code { userid: string; redirectUri: string; scope: string; expiresAt: number; used: boolean }
interface Access { userid: string; expiresAt: number; expired: boolean; used: boolean }
interface Refresh { userid: string; scope: string; supersededBy?: string; supersededAt?: number }

export type Envelope = { status: number; body: Record<string, unknown>; error?: string };

const token = () => randomBytes(20).toString('hex');

export class SimOAuth {
  private codes = new Map<string, Code>();
  readonly access = new Map<string, Access>();
  private refreshTokens = new Map<string, Refresh>();
  readonly revokedUsers = new Set<string>();

  constructor(private readonly clientId: string, private readonly clientSecret: string) {}

  /** Validates an authorize URL and returns the redirect the consent step sends the browser to. */
  consent(authorizeUrl: string, expectedPath: string, userid: string, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const q = url.searchParams;
    if (url.origin + url.pathname !== expectedPath) throw new Error(`authorize: wrong endpoint ${url.origin}${url.pathname}`);
    if (q.get('response_type') !== 'code') throw new Error('authorize: response_type must be code');
    if (q.get('client_id') !== this.clientId) throw new Error('authorize: unknown client_id');
    const state = q.get('state');
    const redirect = q.get('redirect_uri');
    const scope = q.get('scope');
    if (!state) throw new Error('authorize: state is required');
    if (!redirect || !/^https?:\/\//.test(redirect)) throw new Error('authorize: redirect_uri is required');
    if (!scope || scope.includes(' ') || !scope.split(',').every((s) => KNOWN_SCOPES.includes(s))) throw new Error(`authorize: scope must be a comma-separated list of ${KNOWN_SCOPES.join(',')}`);
    const back = new URL(redirect);
    if (decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = token();
      this.codes.set(code, { userid, redirectUri: redirect, scope, expiresAt: Date.now() + 30_000, used: false });
      back.searchParams.set('code', code);
    }
    back.searchParams.set('state', state);
    return back.toString();
  }

  private issue(userid: string, scope: string): Envelope {
    const accessToken = token();
    const refreshToken = token();
    this.access.set(accessToken, { userid, expiresAt: Date.now() + ACCESS_TTL_S * 1000, expired: false, used: false });
    this.refreshTokens.set(refreshToken, { userid, scope });
    return {
      status: 0,
      body: { userid: Number(userid), access_token: accessToken, refresh_token: refreshToken, expires_in: ACCESS_TTL_S, scope, csrf_token: token().slice(0, 32), token_type: 'Bearer' },
    };
  }

  /** POST v2/oauth2 action=requesttoken (client-secret variant). */
  requestToken(form: URLSearchParams): { kind: 'code' | 'refresh' | 'none'; userid?: string; answer: Envelope } {
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
      return { kind: 'none', answer: { status: 401, body: {}, error: 'invalid_client: The client credentials are invalid' } };
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.used || code.expiresAt < Date.now() || code.redirectUri !== form.get('redirect_uri')) {
        return { kind: 'code', answer: { status: 503, body: {}, error: 'Invalid Params: invalid code' } };
      }
      code.used = true;
      return { kind: 'code', userid: code.userid, answer: this.issue(code.userid, code.scope) };
    }
    if (grant === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const rt = this.refreshTokens.get(presented);
      const successor = rt?.supersededBy ? this.access.get(rt.supersededBy) : undefined;
      const dead = !rt || this.revokedUsers.has(rt.userid) || (rt.supersededAt !== undefined && (successor?.used || Date.now() - rt.supersededAt > OLD_REFRESH_GRACE_MS));
      if (!rt || dead) return { kind: 'refresh', userid: rt?.userid, answer: { status: 503, body: {}, error: 'Invalid Params: invalid refresh_token' } };
      const answer = this.issue(rt.userid, rt.scope);
      rt.supersededBy = String(answer.body.access_token);
      rt.supersededAt = Date.now();
      return { kind: 'refresh', userid: rt.userid, answer };
    }
    return { kind: 'none', answer: { status: 503, body: {}, error: 'Invalid Params: invalid grant_type' } };
  }

  /** The user of a bearer token, or the Withings status to answer (401: "Authentication failed"). */
  userOf(authorization: string | undefined): { userid: string } | { status: number; error: string } {
    const m = /^Bearer (\S+)$/.exec(authorization ?? '');
    const at = m ? this.access.get(m[1]) : undefined;
    if (!at || at.expired || at.expiresAt < Date.now() || this.revokedUsers.has(at.userid)) {
      return { status: 401, error: 'XRequestID: Not provided invalid_token: The access token provided is invalid' };
    }
    at.used = true;
    return { userid: at.userid };
  }

  expireAll(userid: string): void {
    for (const at of this.access.values()) if (at.userid === userid) at.expired = true;
  }
}
