/**
 * The WHOOP simulator's OAuth 2.0 server, after developer.whoop.com/docs/developing/oauth: the
 * authorize step (response_type=code, client_id, a registered-looking redirect_uri, a state of at
 * least eight characters, known scopes; redirect with `code` + `state`, or `error=access_denied`),
 * the token URL (authorization_code and refresh_token grants, client credentials in the form), a
 * refresh token only when `offline` was granted, one-hour access tokens, and rotation: a refresh
 * invalidates the previous access and refresh tokens, so an old or revoked one is `invalid_grant`.
 */
import { randomBytes } from 'node:crypto';
import { GrantBook } from '../../../../test/simulators/kit/sim-grants';
import { json, SimReply } from './whoop-sim-api';

export const WHOOP_SCOPES = ['read:recovery', 'read:cycles', 'read:workout', 'read:sleep', 'read:profile', 'read:body_measurement', 'offline'];
const ACCESS_TTL_S = 3600;
const CODE_TTL_MS = 10 * 60_000;

interface Grant {
  userId: string;
  scopes: string[];
  revoked: boolean;
}

const secret = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

export class WhoopAuthServer extends GrantBook<Grant> {
  private readonly codes = new Map<string, { grantId: string; redirectUri: string; expiresAt: number }>();

  constructor(private readonly client: { id: string; secret: string }) {
    super();
  }

  count(userId: string) {
    return this.counts.of(userId);
  }

  /** Validates an authorize URL as WHOOP's consent page would and returns where the browser goes. */
  consent(authorizeUrl: string, userId: string, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    if (url.pathname !== '/oauth/oauth2/auth') throw new Error(`not WHOOP's authorize path: ${url.pathname}`);
    if (p.get('response_type') !== 'code') throw new Error('response_type must be code');
    if (p.get('client_id') !== this.client.id) throw new Error('unknown client_id');
    const redirect = p.get('redirect_uri');
    if (!redirect || !/^[a-z][a-z0-9+.-]*:\/\//i.test(redirect)) throw new Error('redirect_uri missing or not a URL');
    const state = p.get('state');
    if (!state || state.length < 8) throw new Error('state must be at least eight characters long');
    const scopes = (p.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0) throw new Error('scope missing');
    const unknown = scopes.filter((s) => !WHOOP_SCOPES.includes(s));
    if (unknown.length) throw new Error(`unknown scope ${unknown.join(',')}`);
    const back = new URL(redirect);
    if (decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The resource owner denied the request');
    } else {
      const grantId = secret('g');
      this.open(grantId, { userId, scopes, revoked: false });
      const code = secret('c');
      this.codes.set(code, { grantId, redirectUri: redirect, expiresAt: Date.now() + CODE_TTL_MS });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', scopes.join(' '));
    }
    back.searchParams.set('state', state);
    return back.toString();
  }

  private issue(grantId: string): SimReply {
    const grant = this.grant(grantId)!;
    // Rotation: whatever this grant held before stops working now.
    this.rotate(grantId);
    const accessToken = secret('at');
    this.addAccess(accessToken, grantId, Date.now() + ACCESS_TTL_S * 1000);
    const body: Record<string, unknown> = { access_token: accessToken, expires_in: ACCESS_TTL_S, scope: grant.scopes.join(' '), token_type: 'bearer' };
    if (grant.scopes.includes('offline')) {
      const refreshToken = secret('rt');
      this.addRefresh(refreshToken, grantId);
      body.refresh_token = refreshToken;
    }
    return json(200, body);
  }

  private static oauthError(status: number, error: string, description: string): SimReply {
    return json(status, { error, error_description: description });
  }

  /** POST to the token URL, form-encoded. */
  token(form: URLSearchParams): SimReply {
    if (form.get('client_id') !== this.client.id || form.get('client_secret') !== this.client.secret) {
      return WhoopAuthServer.oauthError(401, 'invalid_client', 'Client authentication failed');
    }
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (!code || code.expiresAt < Date.now()) return WhoopAuthServer.oauthError(400, 'invalid_grant', 'The authorization code is invalid, expired or already used');
      if (form.get('redirect_uri') !== code.redirectUri) return WhoopAuthServer.oauthError(400, 'invalid_grant', 'redirect_uri does not match');
      const grant = this.grant(code.grantId)!;
      this.count(grant.userId).tokenExchanges++;
      return this.issue(code.grantId);
    }
    if (grantType === 'refresh_token') {
      const held = this.byRefresh(form.get('refresh_token') ?? '');
      if (held) this.count(held.grant.userId).refreshes++;
      if (!held?.usable) return WhoopAuthServer.oauthError(400, 'invalid_grant', 'The refresh token is invalid, already used or revoked');
      return this.issue(held.grantId);
    }
    return WhoopAuthServer.oauthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
  }

  /** Who holds a bearer token, and whether it is still good. */
  holder(authorization: string | undefined): { userId?: string; valid: boolean; scopes: string[] } {
    const held = this.byAccess(/^Bearer (.+)$/.exec(authorization ?? '')?.[1]);
    return held ? { userId: held.grant.userId, valid: held.valid, scopes: held.grant.scopes } : { valid: false, scopes: [] };
  }

  /** `DELETE /v2/user/access`: the grant behind the token is revoked (its tokens stop working, no more webhooks). */
  revokeAccess(authorization: string | undefined): SimReply {
    const held = this.byAccess(/^Bearer (.+)$/.exec(authorization ?? '')?.[1]);
    if (!held?.valid) return json(401, { error: 'Invalid authorization' });
    held.grant.revoked = true;
    this.count(held.grant.userId).revokes++;
    return { status: 204 };
  }
}
