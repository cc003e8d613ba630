/**
 * The Google Health simulator's OAuth 2.0 server, after Google's "Using OAuth 2.0 for Web Server
 * Applications": the consent step (redirect with `code`, `scope` and `state`, or
 * `error=access_denied`), PKCE (S256 checked at the exchange), a refresh token only with
 * `access_type=offline`, refresh answers without a new refresh token (Google keeps one per grant),
 * `invalid_grant` for a used code or a revoked grant, and `POST /revoke` with `token=`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { GrantBook } from '../../../../test/simulators/kit/sim-grants';
import type { SimReply } from '../../../../test/simulators/kit/sim-server';

export const SIM_SCOPES = ['activity_and_fitness.readonly', 'health_metrics_and_measurements.readonly', 'sleep.readonly', 'nutrition.readonly', 'profile.readonly'].map(
  (s) => `https://www.googleapis.com/auth/googlehealth.${s}`,
);
const ACCESS_TTL_S = 3599;

interface Grant {
  userId: string;
  scope: string;
  revoked: boolean;
}

const token = (prefix: string) => `${prefix}.${randomBytes(18).toString('base64url')}`;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): SimReply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

/** Google's API error model. */
export const apiError = (code: number, status: string, message: string, headers: Record<string, string> = {}): SimReply => json(code, { error: { code, message, status } }, headers);

const oauthError = (status: number, error: string, description: string): SimReply => json(status, { error, error_description: description });

export class GoogleAuthServer extends GrantBook<Grant> {
  private readonly codes = new Map<string, { grantId: string; redirectUri: string; challenge?: string; offline: boolean }>();

  constructor(private readonly client: { id: string; secret: string }) {
    super();
  }

  consent(authorizeUrl: string, userId: string, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    if (url.pathname !== '/o/oauth2/v2/auth') throw new Error(`not Google's authorize path: ${url.pathname}`);
    if (p.get('response_type') !== 'code') throw new Error('response_type must be code');
    if (p.get('client_id') !== this.client.id) throw new Error('invalid_client');
    const redirect = p.get('redirect_uri');
    if (!redirect || !/^https?:\/\//.test(redirect)) throw new Error('redirect_uri_mismatch');
    const state = p.get('state');
    if (!state) throw new Error('state missing');
    const scopes = (p.get('scope') ?? '').split(' ').filter(Boolean);
    if (!scopes.length) throw new Error('Missing required parameter: scope');
    const unknown = scopes.filter((s) => !SIM_SCOPES.includes(s));
    if (unknown.length) throw new Error(`invalid_scope ${unknown.join(',')}`);
    const challenge = p.get('code_challenge') ?? undefined;
    if (challenge && p.get('code_challenge_method') !== 'S256') throw new Error('code_challenge_method must be S256');
    const back = new URL(redirect);
    if (decision === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const grantId = token('g');
      this.open(grantId, { userId, scope: scopes.join(' '), revoked: false });
      const code = token('4/0A');
      this.codes.set(code, { grantId, redirectUri: redirect, challenge, offline: p.get('access_type') === 'offline' });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', scopes.join(' '));
    }
    back.searchParams.set('state', state);
    return back.toString();
  }

  private issue(grantId: string, withRefresh: boolean): SimReply {
    const accessToken = token('ya29');
    this.addAccess(accessToken, grantId, Date.now() + ACCESS_TTL_S * 1000);
    const grant = this.grant(grantId)!;
    const answer: Record<string, unknown> = { access_token: accessToken, expires_in: ACCESS_TTL_S, scope: grant.scope, token_type: 'Bearer' };
    if (withRefresh) {
      const refreshToken = token('1//0g');
      this.addRefresh(refreshToken, grantId);
      answer.refresh_token = refreshToken;
    }
    return json(200, answer);
  }

  /** POST /token, application/x-www-form-urlencoded. */
  token(form: URLSearchParams): SimReply {
    if (form.get('client_id') !== this.client.id || form.get('client_secret') !== this.client.secret) return oauthError(401, 'invalid_client', 'Unauthorized');
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const c = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const grant = c && this.grant(c.grantId);
      if (!c || !grant || grant.revoked) return oauthError(400, 'invalid_grant', 'Malformed auth code.');
      if (form.get('redirect_uri') !== c.redirectUri) return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
      if (c.challenge) {
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== c.challenge) return oauthError(400, 'invalid_grant', 'Invalid code verifier.');
      }
      this.counts.of(grant.userId).tokenExchanges++;
      return this.issue(c.grantId, c.offline);
    }
    if (grantType === 'refresh_token') {
      // Google keeps one refresh token per grant: it works until the grant is revoked.
      const held = this.byRefresh(form.get('refresh_token') ?? '');
      if (held) this.counts.of(held.grant.userId).refreshes++;
      if (!held?.usable) return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      return this.issue(held.grantId, false);
    }
    return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type');
  }

  /** POST /revoke, `token=` an access or refresh token: the grant ends; 400 invalid_token when unknown. */
  revoke(form: URLSearchParams): SimReply {
    const t = form.get('token') ?? '';
    const grant = (this.byRefresh(t) ?? this.byAccess(t))?.grant;
    if (!grant || grant.revoked) return oauthError(400, 'invalid_token', 'Token expired or revoked');
    this.counts.of(grant.userId).revokes++;
    grant.revoked = true;
    return { status: 200 };
  }

  holder(authorization: string | undefined): { userId?: string; valid: boolean } {
    return this.holderOf(authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined);
  }
}
