/**
 * The Suunto simulator's authorization API, after apizone.suunto.com "How to start" and the
 * Authorisation API's Token operation: `/oauth/authorize` (response_type=code, client_id,
 * redirect_uri; redirect with `code`, and `state` when given), `/oauth/token` protected with HTTP
 * Basic client authentication (RFC 7617), grant_type authorization_code or refresh_token, answering
 * JWT access and refresh tokens ("Token expiration time … is in the exp token attribute") with the
 * Suunto username in `user`. A refresh rotates both tokens; a used or revoked refresh token is
 * `invalid_grant`. `/oauth/deauthorize?client_id=` with the user's token ends the grant.
 */
import { randomBytes } from 'node:crypto';
import { GrantBook, SimGrant } from '../../../../test/simulators/kit/sim-grants';
import type { SimReply } from '../../../../test/simulators/kit/sim-server';

/** Suunto's access tokens live a day (its answers say expires_in 86399). */
const ACCESS_TTL_S = 86_399;
const CODE_TTL_MS = 10 * 60_000;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): SimReply => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** A grant's user is the Suunto username. */
type Grant = SimGrant;

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A JWT as Suunto's look: header, claims (`user`, `exp`, `jti`), signature (opaque here). */
const jwt = (user: string, exp: number) => `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ user, exp, jti: randomBytes(8).toString('hex'), authorities: ['ROLE_USER'] })}.${randomBytes(24).toString('base64url')}`;

export class SuuntoAuthServer extends GrantBook<Grant> {
  private readonly codes = new Map<string, { grantId: string; redirectUri: string; expiresAt: number }>();

  constructor(private readonly client: { id: string; secret: string }) {
    super();
  }

  /** Validates an authorize URL as Suunto's consent page would and returns where the browser goes. */
  consent(authorizeUrl: string, user: string, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    if (url.pathname !== '/oauth/authorize') throw new Error(`not Suunto's authorize path: ${url.pathname}`);
    if (p.get('response_type') !== 'code') throw new Error('response_type must be code');
    if (p.get('client_id') !== this.client.id) throw new Error('unknown client_id');
    const redirect = p.get('redirect_uri');
    if (!redirect || !/^[a-z][a-z0-9+.-]*:\/\//i.test(redirect)) throw new Error('redirect_uri missing or not a URL');
    const back = new URL(redirect);
    if (decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'User denied access');
    } else {
      const grantId = randomBytes(9).toString('hex');
      this.open(grantId, { userId: user, revoked: false });
      const code = randomBytes(6).toString('base64url');
      this.codes.set(code, { grantId, redirectUri: redirect, expiresAt: Date.now() + CODE_TTL_MS });
      back.searchParams.set('code', code);
    }
    const state = p.get('state');
    if (state) back.searchParams.set('state', state);
    return back.toString();
  }

  private issue(grantId: string): SimReply {
    const user = this.grant(grantId)!.userId;
    this.rotate(grantId);
    const exp = Math.floor(Date.now() / 1000) + ACCESS_TTL_S;
    const accessToken = jwt(user, exp);
    const refreshToken = jwt(user, exp + 30 * 86_400);
    this.addAccess(accessToken, grantId, exp * 1000);
    this.addRefresh(refreshToken, grantId);
    return json(200, { access_token: accessToken, token_type: 'bearer', refresh_token: refreshToken, expires_in: ACCESS_TTL_S, scope: 'workout', user, jti: randomBytes(8).toString('hex') });
  }

  private static oauthError(status: number, error: string, description: string): SimReply {
    return json(status, { error, error_description: description });
  }

  /** POST /oauth/token: Basic client authentication; parameters in the form or the query. */
  token(authorization: string | undefined, params: URLSearchParams): SimReply {
    const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
    if (!basic || Buffer.from(basic, 'base64').toString('utf8') !== `${this.client.id}:${this.client.secret}`) {
      return SuuntoAuthServer.oauthError(401, 'unauthorized', 'Full authentication is required to access this resource');
    }
    const grantType = params.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = this.codes.get(params.get('code') ?? '');
      this.codes.delete(params.get('code') ?? '');
      if (!code || code.expiresAt < Date.now()) return SuuntoAuthServer.oauthError(400, 'invalid_grant', 'Invalid authorization code');
      if (params.get('redirect_uri') !== code.redirectUri) return SuuntoAuthServer.oauthError(400, 'invalid_grant', 'Redirect URI mismatch.');
      this.counts.of(this.grant(code.grantId)!.userId).tokenExchanges++;
      return this.issue(code.grantId);
    }
    if (grantType === 'refresh_token') {
      const held = this.byRefresh(params.get('refresh_token') ?? '');
      if (held) this.counts.of(held.grant.userId).refreshes++;
      if (!held?.usable) return SuuntoAuthServer.oauthError(400, 'invalid_grant', 'Invalid refresh token');
      return this.issue(held.grantId);
    }
    return SuuntoAuthServer.oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`);
  }

  /** Who holds a bearer token (`Authorization: Bearer <jwt>` or the bare token), and whether it is still good. */
  holder(authorization: string | undefined): { user?: string; valid: boolean } {
    const held = this.byAccess(/^(?:Bearer )?(.+)$/.exec(authorization ?? '')?.[1]);
    return held ? { user: held.grant.userId, valid: held.valid } : { valid: false };
  }

  /** GET /oauth/deauthorize?client_id=: the grant behind the token ends (no more notifications for the user). */
  deauthorize(authorization: string | undefined, clientId: string | null): SimReply {
    if (clientId !== this.client.id) return SuuntoAuthServer.oauthError(400, 'invalid_client', 'Unknown client');
    const held = this.byAccess(/^(?:Bearer )?(.+)$/.exec(authorization ?? '')?.[1]);
    if (!held?.valid) return SuuntoAuthServer.oauthError(401, 'invalid_token', 'Invalid access token');
    held.grant.revoked = true;
    this.counts.of(held.grant.userId).revokes++;
    return { status: 200 };
  }
}
