/**
 * Garmin's OAuth 2.0 with PKCE as its "OAuth2 PKCE Specification" describes it: the consent at
 * `/oauth2Confirm` (response_type=code, client_id, code_challenge, code_challenge_method=S256,
 * redirect_uri, state), the token endpoint `/di-oauth2-service/oauth/token` taking form-encoded
 * grants with client_id and client_secret (authorization_code with code_verifier and redirect_uri;
 * refresh_token), answering `{access_token, expires_in: 86400, token_type: "bearer", refresh_token,
 * refresh_token_expires_in}`; every refresh answers a new refresh token and spends the old one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { TokenCallCounts } from '../../../../test/simulators/kit/sim-oauth';
import type { SimReply } from '../../../../test/simulators/kit/sim-server';

const ACCESS_S = 86_400;
const REFRESH_S = 7_775_998;

interface Grant {
  userId: string;
  challenge: string;
  redirectUri: string;
}

const json = (status: number, body: unknown): SimReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const oauthError = (status: number, error: string) => json(status, { error, error_description: error });
const token = () => randomBytes(18).toString('base64url');

export class GarminAuthServer {
  readonly counts = new TokenCallCounts<string>();
  private readonly codes = new Map<string, Grant>();
  private readonly access = new Map<string, { userId: string; expiresAt: number }>();
  private readonly refreshes = new Map<string, string>();
  private readonly revokedUsers = new Set<string>();
  /** Our webhook, as the operator configured it in the endpoint tool (next to the registered redirect URI). */
  webhookUrl?: string;

  constructor(private readonly client: { id: string; secret: string }) {}

  consent(authorizeUrl: string, userId: string, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    if (p.get('response_type') !== 'code') throw new Error('response_type must be code');
    if (p.get('client_id') !== this.client.id) throw new Error('unknown client_id');
    if (p.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(p.get('code_challenge') ?? '')) throw new Error('PKCE S256 code_challenge required');
    const redirectUri = p.get('redirect_uri');
    const state = p.get('state');
    if (!redirectUri || !state) throw new Error('redirect_uri and state are required');
    this.webhookUrl = redirectUri.replace(/\/callback$/, '/webhook');
    const back = new URL(redirectUri);
    back.searchParams.set('state', state);
    if (decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
      return back.toString();
    }
    const code = token();
    this.codes.set(code, { userId, challenge: p.get('code_challenge')!, redirectUri });
    this.revokedUsers.delete(userId);
    back.searchParams.set('code', code);
    return back.toString();
  }

  token(form: URLSearchParams): SimReply {
    if (form.get('client_id') !== this.client.id || form.get('client_secret') !== this.client.secret) return oauthError(401, 'invalid_client');
    if (form.get('grant_type') === 'authorization_code') {
      const grant = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (!grant || grant.redirectUri !== form.get('redirect_uri')) return oauthError(400, 'invalid_grant');
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return oauthError(400, 'invalid_grant');
      this.counts.of(grant.userId).tokenExchanges++;
      return this.issue(grant.userId);
    }
    if (form.get('grant_type') === 'refresh_token') {
      const old = form.get('refresh_token') ?? '';
      const userId = this.refreshes.get(old);
      if (!userId || this.revokedUsers.has(userId)) return oauthError(400, 'invalid_grant');
      this.refreshes.delete(old);
      this.counts.of(userId).refreshes++;
      return this.issue(userId);
    }
    return oauthError(400, 'unsupported_grant_type');
  }

  private issue(userId: string): SimReply {
    const access = token();
    const refresh = token();
    this.access.set(access, { userId, expiresAt: Date.now() + ACCESS_S * 1000 });
    this.refreshes.set(refresh, userId);
    return json(200, { access_token: access, expires_in: ACCESS_S, token_type: 'bearer', refresh_token: refresh, refresh_token_expires_in: REFRESH_S });
  }

  /** The user a bearer header names, when its token is live. */
  userOf(authorization: string | undefined): string | undefined {
    const t = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const held = t ? this.access.get(t) : undefined;
    return held && held.expiresAt > Date.now() ? held.userId : undefined;
  }

  expireAccessTokens(userId: string): void {
    for (const held of this.access.values()) if (held.userId === userId) held.expiresAt = 0;
  }

  /** The refresh token no longer works (its 90 days ran out, or Garmin revoked it). */
  revokeGrants(userId: string): void {
    this.revokedUsers.add(userId);
  }

  /** "Delete User Access Token": every token of the user stops working. */
  deregister(userId: string): void {
    this.expireAccessTokens(userId);
    this.revokeGrants(userId);
    this.counts.of(userId).revokes++;
  }
}
