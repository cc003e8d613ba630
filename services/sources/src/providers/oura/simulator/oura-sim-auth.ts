/**
 * The Oura simulator's OAuth2 server, after https://cloud.ouraring.com/docs/authentication: the
 * consent step (redirect with `code`+`scope`+`state`, or `error=access_denied`), the token URL
 * (authorization_code and refresh_token grants, client credentials in the form), single-use
 * refresh tokens that rotate, `invalid_grant` for used, unknown or revoked grants, and revoke.
 */
import { randomBytes } from 'node:crypto';
import { GrantBook } from '../../../../test/simulators/kit/sim-grants';
import { json, SimReply } from './oura-sim-api';

export const OURA_SCOPES = ['email', 'personal', 'daily', 'heartrate', 'workout', 'tag', 'session', 'spo2Daily'];
const ACCESS_TTL_S = 86_400;
const CODE_TTL_MS = 10 * 60_000;

interface Grant {
  userId: string;
  scope: string;
  revoked: boolean;
}

const secret = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

export class OuraAuthServer extends GrantBook<Grant> {
  private readonly codes = new Map<string, { grantId: string; clientId: string; redirectUri: string; expiresAt: number }>();

  constructor(private readonly client: { id: string; secret: string }) {
    super();
  }

  private count(userId: string) {
    return this.counts.of(userId);
  }

  /**
   * Validates an authorize URL as Oura's consent page would and returns where the browser goes.
   * Throws on a URL Oura would refuse to show (wrong response_type or client, no redirect, unknown scope).
   */
  consent(authorizeUrl: string, userId: string, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    if (url.pathname !== '/oauth/authorize') throw new Error(`not Oura's authorize path: ${url.pathname}`);
    if (p.get('response_type') !== 'code') throw new Error('response_type must be code');
    if (p.get('client_id') !== this.client.id) throw new Error('unknown client_id');
    const redirect = p.get('redirect_uri');
    if (!redirect || !/^https?:\/\//.test(redirect)) throw new Error('redirect_uri missing or not a URL');
    const state = p.get('state');
    if (!state) throw new Error('state missing (Wellstream always sends one)');
    const scopes = (p.get('scope') ?? OURA_SCOPES.join(' ')).split(' ').filter(Boolean);
    const unknown = scopes.filter((s) => !OURA_SCOPES.includes(s));
    if (unknown.length) throw new Error(`unknown scope ${unknown.join(',')}`);
    const back = new URL(redirect);
    if (decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const grantId = secret('g');
      this.open(grantId, { userId, scope: scopes.join(' '), revoked: false });
      const code = secret('c');
      this.codes.set(code, { grantId, clientId: this.client.id, redirectUri: redirect, expiresAt: Date.now() + CODE_TTL_MS });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', scopes.join(' '));
    }
    back.searchParams.set('state', state);
    return back.toString();
  }

  private issue(grantId: string): SimReply {
    const accessToken = secret('at');
    const refreshToken = secret('rt');
    this.addAccess(accessToken, grantId, Date.now() + ACCESS_TTL_S * 1000);
    this.addRefresh(refreshToken, grantId);
    return json(200, { token_type: 'bearer', access_token: accessToken, expires_in: ACCESS_TTL_S, refresh_token: refreshToken });
  }

  private static oauthError(status: number, error: string, description: string): SimReply {
    return json(status, { status, title: description, error, error_description: description, detail: description });
  }

  /** POST /oauth/token with an application/x-www-form-urlencoded body. */
  token(form: URLSearchParams, authorization: string | undefined): SimReply {
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    if (authorization?.startsWith('Basic ')) [clientId, clientSecret] = Buffer.from(authorization.slice(6), 'base64').toString().split(':');
    if (clientId !== this.client.id || clientSecret !== this.client.secret) return OuraAuthServer.oauthError(401, 'invalid_client', 'Client authentication failed');
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? ''); // single use, valid or not
      const grant = code && this.grant(code.grantId);
      if (!code || !grant || grant.revoked || code.expiresAt < Date.now()) return OuraAuthServer.oauthError(400, 'invalid_grant', 'Authorization code is invalid or expired');
      if (form.get('redirect_uri') !== null && form.get('redirect_uri') !== code.redirectUri) return OuraAuthServer.oauthError(400, 'invalid_grant', 'redirect_uri mismatch');
      this.count(grant.userId).tokenExchanges++;
      return this.issue(code.grantId);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      const held = this.byRefresh(refreshToken);
      if (held) this.count(held.grant.userId).refreshes++;
      if (!held?.usable) return OuraAuthServer.oauthError(400, 'invalid_grant', 'Refresh token is invalid, used or revoked');
      this.spendRefresh(refreshToken); // Oura's refresh tokens are single use: the answer carries the next one
      return this.issue(held.grantId);
    }
    return OuraAuthServer.oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  /** `/oauth/revoke?access_token=…`: the whole grant goes (its refresh tokens answer invalid_grant after). */
  revoke(accessToken: string | null): SimReply {
    const grant = this.byAccess(accessToken ?? undefined)?.grant;
    if (!grant) return OuraAuthServer.oauthError(400, 'invalid_token', 'Unknown access token');
    this.count(grant.userId).revokes++;
    grant.revoked = true;
    return { status: 200 };
  }

  /** The user behind a bearer token, whether or not it still works (so refused calls can be counted). */
  holder(authorization: string | undefined): { userId?: string; valid: boolean } {
    return this.holderOf(authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined);
  }
}
