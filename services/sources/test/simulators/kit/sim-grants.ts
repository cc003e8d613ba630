/**
 * Grant bookkeeping the simulators' OAuth servers share: the grants users made at consent, the
 * access tokens (with their expiry) and refresh tokens each grant holds, the lookups every API route
 * needs (who holds this token, does it still work), rotation, and the suite's levers (expire a user's
 * access tokens, revoke a user's grants). Token formats, lifetimes, which grant types exist, what a
 * refresh answers and every error body stay each provider's own, in its `*-sim-auth.ts`.
 */
import { TokenCallCounts } from './sim-oauth';

/** What every provider's grant holds; a provider adds its own (scopes, …). */
export interface SimGrant {
  userId: string;
  revoked: boolean;
}

/** An OAuth server of a simulator extends it and adds its provider's consent, token and revoke routes. */
export class GrantBook<G extends SimGrant> {
  private readonly grants = new Map<string, G>();
  private readonly access = new Map<string, { grantId: string; expiresAt: number }>();
  private readonly refreshes = new Map<string, { grantId: string; valid: boolean }>();
  readonly counts = new TokenCallCounts<string>();

  open(grantId: string, grant: G): void {
    this.grants.set(grantId, grant);
  }

  grant(grantId: string): G | undefined {
    return this.grants.get(grantId);
  }

  /** An access token of the grant, working until `expiresAt` (ms) unless the grant is revoked. */
  addAccess(token: string, grantId: string, expiresAt: number): void {
    this.access.set(token, { grantId, expiresAt });
  }

  /** A refresh token of the grant, working until spent, rotated away or the grant is revoked. */
  addRefresh(token: string, grantId: string): void {
    this.refreshes.set(token, { grantId, valid: true });
  }

  /** Rotation: every access and refresh token the grant held stops working. */
  rotate(grantId: string): void {
    for (const [t, a] of this.access) if (a.grantId === grantId) this.access.delete(t);
    for (const r of this.refreshes.values()) if (r.grantId === grantId) r.valid = false;
  }

  /**
   * A refresh token's grant: `grant` whenever the token was issued (so a refused refresh is counted
   * for its user), `usable` only while neither the token nor the grant is spent.
   */
  byRefresh(token: string): { grantId: string; grant: G; usable: boolean } | undefined {
    const held = this.refreshes.get(token);
    const grant = held && this.grants.get(held.grantId);
    return held && grant ? { grantId: held.grantId, grant, usable: held.valid && !grant.revoked } : undefined;
  }

  /** A single-use refresh token is spent by its refresh. */
  spendRefresh(token: string): void {
    const held = this.refreshes.get(token);
    if (held) held.valid = false;
  }

  /** An access token's grant, and whether the token works now (not expired, grant not revoked). */
  byAccess(token: string | undefined): { grantId: string; grant: G; valid: boolean } | undefined {
    const held = token ? this.access.get(token) : undefined;
    const grant = held && this.grants.get(held.grantId);
    return held && grant ? { grantId: held.grantId, grant, valid: !grant.revoked && held.expiresAt > Date.now() } : undefined;
  }

  /** The user behind an access token, whether or not it still works (so refused calls can be counted). */
  holderOf(token: string | undefined): { userId?: string; valid: boolean } {
    const held = this.byAccess(token);
    return held ? { userId: held.grant.userId, valid: held.valid } : { valid: false };
  }

  /** Whether the user still has a grant that is not revoked (providers notify only then). */
  authorized(userId: string): boolean {
    return [...this.grants.values()].some((g) => g.userId === userId && !g.revoked);
  }

  expireAccessTokens(userId: string): void {
    for (const held of this.access.values()) if (this.grants.get(held.grantId)?.userId === userId) held.expiresAt = 0;
  }

  revokeGrants(userId: string): void {
    for (const g of this.grants.values()) if (g.userId === userId) g.revoked = true;
  }
}
