/**
 * The simulator's OAuth side, after developer.dexcom.com "Authentication": the login URL
 * (/v2/oauth2/login with client_id, redirect_uri, response_type=code, scope=offline_access, state)
 * and the token endpoint (POST /v2/oauth2/token, form-encoded, client_id and client_secret in the
 * body, grant_type authorization_code or refresh_token). Answers `{access_token, expires_in: 7200,
 * token_type: "Bearer", refresh_token}`. Refresh tokens are single-use: a refresh answers a new
 * one and kills the one presented. A used, unknown or revoked code or refresh token answers
 * 400 `{"error":"invalid_grant"}` (RFC 6749 §5.2; the body Dexcom sends is not on the pages read).
 */
import { randomBytes } from 'node:crypto';
import type { TokenCounts } from '../../../../test/simulators/kit/sim-faults';
import type { SimUser } from './dexcom-sim-data';

export const ACCESS_TOKEN_S = 7200;
const CODE_TTL_MS = 10 * 60_000;

export interface OAuthAnswer {
  status: number;
  body: Record<string, unknown>;
}

export type UserStats = TokenCounts;

/** Codes, access and refresh tokens, each pointing at its user. */
export class SimOAuth {
  private readonly codes = new Map<string, { user: SimUser; redirectUri: string; expires: number }>();
  private readonly access = new Map<string, { user: SimUser; expires: number }>();
  private readonly refresh = new Map<string, SimUser>();
  readonly stats = new Map<SimUser, UserStats>();

  constructor(
    readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  statsOf(user: SimUser): UserStats {
    let s = this.stats.get(user);
    if (!s) this.stats.set(user, (s = { tokenExchanges: 0, refreshes: 0, revokes: 0 }));
    return s;
  }

  /**
   * Checks an authorize URL as Dexcom's login page would and returns where the browser goes next.
   * Throws for a URL Dexcom would not serve a consent page for.
   */
  decide(authorizeUrl: string, user: SimUser, decision: 'allow' | 'deny'): string {
    const url = new URL(authorizeUrl);
    const p = url.searchParams;
    const fail = (why: string) => {
      throw new Error(`Dexcom simulator: invalid authorize URL (${why}): ${authorizeUrl}`);
    };
    if (url.pathname !== '/v2/oauth2/login') fail('path is not /v2/oauth2/login');
    if (p.get('client_id') !== this.clientId) fail('unknown client_id');
    if (p.get('response_type') !== 'code') fail('response_type must be code');
    if (p.get('scope') !== 'offline_access') fail('scope must be offline_access');
    const redirectUri = p.get('redirect_uri');
    if (!redirectUri || !/^https?:\/\//.test(redirectUri)) fail('redirect_uri missing');
    const state = p.get('state');
    if (!state) fail('state missing');
    const target = new URL(redirectUri!);
    if (decision === 'deny') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, { user, redirectUri: redirectUri!, expires: Date.now() + CODE_TTL_MS });
      target.searchParams.set('code', code);
    }
    target.searchParams.set('state', state!);
    return target.toString();
  }

  /** POST /v2/oauth2/token with the parsed form. */
  token(form: URLSearchParams): OAuthAnswer {
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'client authentication failed' } };
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? ''); // single use, even when refused below
      if (!code || code.expires < Date.now() || code.redirectUri !== form.get('redirect_uri')) return invalidGrant('authorization code invalid, used or expired');
      this.statsOf(code.user).tokenExchanges++;
      return { status: 200, body: this.issue(code.user) };
    }
    if (grant === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const user = this.refresh.get(presented);
      if (!user) return invalidGrant('refresh token invalid, used or revoked');
      this.refresh.delete(presented); // rotation: the presented token is dead from now on
      this.statsOf(user).refreshes++;
      return { status: 200, body: this.issue(user) };
    }
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  }

  /** The user a bearer token speaks for, or undefined (unknown or expired: 401). */
  bearer(header: string | undefined): SimUser | undefined {
    const m = /^Bearer (.+)$/.exec(header ?? '');
    const t = m ? this.access.get(m[1]) : undefined;
    return t && t.expires > Date.now() ? t.user : undefined;
  }

  expireAccessTokens(user: SimUser): void {
    for (const t of this.access.values()) if (t.user === user) t.expires = 0;
  }

  /** The user withdrew the app's access at Dexcom: every token of theirs stops working. */
  revokeGrant(user: SimUser): void {
    this.expireAccessTokens(user);
    for (const [k, u] of this.refresh) if (u === user) this.refresh.delete(k);
  }

  private issue(user: SimUser): Record<string, unknown> {
    const accessToken = randomBytes(24).toString('base64url');
    const refreshToken = randomBytes(24).toString('base64url');
    this.access.set(accessToken, { user, expires: Date.now() + ACCESS_TOKEN_S * 1000 });
    this.refresh.set(refreshToken, user);
    return { access_token: accessToken, expires_in: ACCESS_TOKEN_S, token_type: 'Bearer', refresh_token: refreshToken };
  }
}

const invalidGrant = (description: string): OAuthAnswer => ({ status: 400, body: { error: 'invalid_grant', error_description: description } });
