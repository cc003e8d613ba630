/**
 * The Polar simulator's OAuth2 server, after AccessLink v3 "Authentication": the consent step at
 * `/oauth2/authorization` (redirect with `code` and `state`, or `error=access_denied` /
 * `invalid_scope`), the token endpoint `/v2/oauth2/token` (HTTP Basic client authentication, only
 * `grant_type=authorization_code`, `redirect_uri` required when the authorize request had one, a code
 * valid 10 minutes and once: a reused code is denied and deletes every token issued for it), and
 * bearer tokens that "will not expire unless explicitly revoked". There are no refresh tokens.
 */
import { randomBytes } from 'node:crypto';
import { TokenCallCounts } from '../../../../test/simulators/kit/sim-oauth';

export const POLAR_SCOPES = ['accesslink.read_all'];
const CODE_TTL_MS = 10 * 60_000;
/** The documented example's expires_in: about a year. */
export const EXPIRES_IN_S = 31_535_999;

import type { SimReply } from '../../../../test/simulators/kit/sim-server';

export type Reply = SimReply;

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json;charset=UTF-8', ...headers },
  body: JSON.stringify(value),
});

/** AccessLink's error model (`timestamp`, `status`, `errorType`, `message`, `corrId`). */
export const error = (status: number, errorType: string, message: string, headers: Record<string, string> = {}): Reply =>
  json(status, { timestamp: new Date().toISOString(), status, errorType, message, corrId: randomBytes(8).toString('hex') }, headers);

const secret = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

interface Code {
  userId: number;
  redirectUri: string | null;
  expiresAt: number;
  used: boolean;
  tokens: string[];
}

export class PolarAuthServer {
  private readonly codes = new Map<string, Code>();
  /** access token → user id and whether Polar still accepts it. */
  private readonly access = new Map<string, { userId: number; valid: boolean }>();
  readonly counts = new TokenCallCounts<number>();

  constructor(private readonly client: { id: string; secret: string }) {}

  count(userId: number) {
    return this.counts.of(userId);
  }

  /**
   * Validates an authorize URL as Polar's authorization form would and returns where the browser
   * goes. Throws on a URL Polar would not show at all (wrong path, response_type or client).
   */
  consent(authorizeUrl: string, userId: number, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    if (url.pathname !== '/oauth2/authorization') throw new Error(`not Polar's authorization path: ${url.pathname}`);
    if (p.get('response_type') !== 'code') throw new Error('response_type must be code ("the only response type supported")');
    if (p.get('client_id') !== this.client.id) throw new Error('unknown client_id');
    const redirect = p.get('redirect_uri');
    if (redirect !== null && !/^https?:\/\//.test(redirect)) throw new Error('redirect_uri is not a URL');
    if (redirect === null) throw new Error('the simulator has no default redirect URL registered: send redirect_uri');
    const back = new URL(redirect);
    const state = p.get('state');
    const scope = p.get('scope');
    if (scope !== null && scope.split(' ').some((s) => !POLAR_SCOPES.includes(s))) back.searchParams.set('error', 'invalid_scope');
    else if (decision === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, { userId, redirectUri: redirect, expiresAt: Date.now() + CODE_TTL_MS, used: false, tokens: [] });
      back.searchParams.set('code', code);
    }
    if (state !== null) back.searchParams.set('state', state);
    return back.toString();
  }

  private static oauthError(errorCode: string): Reply {
    return json(400, { error: errorCode });
  }

  /** POST /v2/oauth2/token (application/x-www-form-urlencoded, Basic client_id:client_secret). */
  token(form: URLSearchParams, authorization: string | undefined): Reply {
    const basic = authorization?.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString() : '';
    const colon = basic.indexOf(':');
    if (colon < 0 || basic.slice(0, colon) !== this.client.id || basic.slice(colon + 1) !== this.client.secret) return PolarAuthServer.oauthError('invalid_client');
    const grantType = form.get('grant_type');
    if (grantType === 'refresh_token') {
      const held = this.access.get(form.get('refresh_token') ?? '');
      if (held) this.count(held.userId).refreshes++;
      return PolarAuthServer.oauthError('unsupported_grant_type');
    }
    if (grantType !== 'authorization_code') return PolarAuthServer.oauthError(grantType ? 'unsupported_grant_type' : 'invalid_request');
    const codeText = form.get('code') ?? '';
    const code = this.codes.get(codeText);
    if (!code || code.expiresAt < Date.now()) return PolarAuthServer.oauthError('invalid_grant');
    if (code.used) {
      // "If it's used more than once, the request will be denied and ALL issued tokens will be deleted."
      for (const t of code.tokens) this.access.delete(t);
      return PolarAuthServer.oauthError('invalid_grant');
    }
    if (code.redirectUri !== null && form.get('redirect_uri') !== code.redirectUri) return PolarAuthServer.oauthError('invalid_grant');
    code.used = true;
    const accessToken = secret('');
    code.tokens.push(accessToken);
    this.access.set(accessToken, { userId: code.userId, valid: true });
    this.count(code.userId).tokenExchanges++;
    return json(200, { access_token: accessToken, token_type: 'bearer', expires_in: EXPIRES_IN_S, x_user_id: code.userId });
  }

  /** The user behind a bearer token, whether or not it still works (so refused calls can be counted). */
  holder(authorization: string | undefined): { userId?: number; valid: boolean; token?: string } {
    const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    const held = this.access.get(token);
    return held ? { userId: held.userId, valid: held.valid, token } : { valid: false };
  }

  /** Client-level routes: Basic with the client credentials. */
  isClient(authorization: string | undefined): boolean {
    return authorization === `Basic ${Buffer.from(`${this.client.id}:${this.client.secret}`).toString('base64')}`;
  }

  /** Every token of the user is refused from now on (Polar has no expiry or refresh to play; see README). */
  refuseTokens(userId: number): void {
    for (const held of this.access.values()) if (held.userId === userId) held.valid = false;
  }

  /** An expired token and a revoked grant look alike at Polar (no expiry, no refresh): both refused. */
  expireAccessTokens(userId: number): void {
    this.refuseTokens(userId);
  }

  revokeGrants(userId: number): void {
    this.refuseTokens(userId);
  }

  revokeToken(token: string): void {
    const held = this.access.get(token);
    if (held) held.valid = false;
  }
}
