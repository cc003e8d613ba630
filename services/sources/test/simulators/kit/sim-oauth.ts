/**
 * Token-endpoint bookkeeping the simulators' OAuth servers share: how many code exchanges, refreshes
 * and revokes each user caused, for `stats`. Grants, token formats, rotation and error bodies are each
 * provider's own (documented differently) and stay in its `*-sim-auth.ts`.
 */
import type { TokenCounts } from './sim-faults';

export class TokenCallCounts<K> {
  private readonly byUser = new Map<K, TokenCounts>();

  /** The user's counts, undefined before their first token call. */
  get(userId: K): TokenCounts | undefined {
    return this.byUser.get(userId);
  }

  /** The user's counts, to increment (created at zero on first use). */
  of(userId: K): TokenCounts {
    const c = this.byUser.get(userId) ?? { tokenExchanges: 0, refreshes: 0, revokes: 0 };
    this.byUser.set(userId, c);
    return c;
  }
}
