/**
 * Fresh access tokens for sync runs. Refreshes before expiry (a minute ahead) and when the
 * provider answers 401, one refresh at a time per connection: within this process by sharing the
 * refresh in flight, across replicas by a lock in the connection document (a second replica waits
 * for the first one's new tokens instead of spending a refresh token that rotation already
 * replaced). The new tokens are written before anything else uses them; a refresh the provider
 * refuses for good throws ProviderError('auth_revoked').
 */
import type { Clock } from '@wellstream/clock';
import type { Connection } from '../connections/connection';
import type { ConnectionRepository } from '../connections/connection.repository';
import { isProviderError, ProviderError, TokenSet } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { TokenVault } from '../vault/token-vault';
import { EPOCH } from './sync-job';

const REFRESH_AHEAD_MS = 60_000;
const LOCK_MS = 30_000;
const WAIT_STEP_MS = 250;

export class TokenKeeper {
  private readonly inFlight = new Map<string, Promise<TokenSet>>();

  constructor(
    private readonly deps: { connections: ConnectionRepository; vault: TokenVault; clock: Clock },
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  tokensOf(c: Connection): TokenSet {
    return JSON.parse(this.deps.vault.open(c.tokens)) as TokenSet;
  }

  /** A token good for at least a minute (refreshing first when needed). */
  async fresh(provider: Provider, c: Connection): Promise<TokenSet> {
    const tokens = this.tokensOf(c);
    if (Date.parse(c.token_expires_at) - this.deps.clock.now().getTime() > REFRESH_AHEAD_MS) return tokens;
    return this.refresh(provider, c);
  }

  /**
   * One call with a fresh token: a 401 (`auth_invalid`) refreshes once and tries again, and a
   * second 401 means the grant is gone (`auth_revoked`).
   */
  async withToken<T>(provider: Provider, c: Connection, call: (accessToken: string) => Promise<T>): Promise<T> {
    try {
      return await call((await this.fresh(provider, c)).accessToken);
    } catch (err) {
      if (!isProviderError(err) || err.kind !== 'auth_invalid') throw err;
    }
    const refreshed = await this.refresh(provider, c);
    try {
      return await call(refreshed.accessToken);
    } catch (err) {
      if (isProviderError(err) && err.kind === 'auth_invalid') throw new ProviderError('auth_revoked', 'the provider refused a freshly refreshed token', err.details);
      throw err;
    }
  }

  /** Refreshes now (after a 401), unless another refresh already replaced the tokens `c` holds. */
  refresh(provider: Provider, c: Connection): Promise<TokenSet> {
    const running = this.inFlight.get(c._id);
    if (running) return running;
    const p = this.refreshOnce(provider, c).finally(() => this.inFlight.delete(c._id));
    this.inFlight.set(c._id, p);
    return p;
  }

  private async refreshOnce(provider: Provider, c: Connection): Promise<TokenSet> {
    for (let waited = 0; waited < LOCK_MS; waited += WAIT_STEP_MS) {
      const now = this.deps.clock.now();
      const locked = await this.deps.connections.lockRefresh(c._id, now, LOCK_MS);
      if (locked) {
        if (locked.token_rev !== c.token_rev) {
          // Someone refreshed since `c` was read: use theirs.
          await this.deps.connections.update(c._id, { $set: { refresh_lock_until: EPOCH } });
          return this.tokensOf(locked);
        }
        try {
          const old = this.tokensOf(locked);
          if (!old.refreshToken) throw new ProviderError('auth_revoked', 'the access token expired and this provider gives no refresh token');
          const next = await provider.adapter.refresh(provider.http.interactive(c._id), provider.settings, old, now);
          // Providers may omit the refresh token when it did not change: keep the one we have.
          const stored: TokenSet = { ...next, refreshToken: next.refreshToken ?? old.refreshToken, providerUserId: next.providerUserId ?? old.providerUserId };
          await this.deps.connections.update(c._id, {
            $set: { tokens: this.deps.vault.seal(JSON.stringify(stored)), token_expires_at: stored.expiresAt, refresh_lock_until: EPOCH, updated_at: now.toISOString() },
            $inc: { token_rev: 1 },
          });
          return stored;
        } catch (err) {
          await this.deps.connections.update(c._id, { $set: { refresh_lock_until: EPOCH } }).catch(() => undefined);
          throw err;
        }
      }
      await this.sleep(WAIT_STEP_MS);
      const current = await this.deps.connections.byId(c._id);
      if (!current) throw new ProviderError('auth_revoked', 'the connection was removed');
      if (current.token_rev !== c.token_rev) return this.tokensOf(current);
    }
    throw new ProviderError('temporary', 'another replica holds the refresh lock');
  }
}
