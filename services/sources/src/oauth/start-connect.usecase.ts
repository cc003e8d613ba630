/**
 * Connect (and Reconnect) from the marketplace: a signed single-use state bound to the user and
 * the provider, a PKCE pair where the provider uses PKCE, and the provider's authorize URL for
 * the browser to go to. Nothing about the connection is stored until the callback.
 */
import type { Clock } from '@wellstream/clock';
import type { ProviderRegistry } from '../providers/provider-registry';
import type { TokenVault } from '../vault/token-vault';
import { marketplaceNotFound, sourceNotOffered, userInactive } from '../connections/source.errors';
import { newState, pkcePair } from './oauth-state';
import type { ProjectedUser } from '../users/user-projection';
import type { OAuthStateRepository } from './oauth-state.repository';

export interface StartConnectDeps {
  registry: ProviderRegistry;
  vault: TokenVault;
  states: OAuthStateRepository;
  clock: Clock;
}

export async function startConnect(deps: StartConnectDeps, user: ProjectedUser | null, type: string, marketplaceUrl: string): Promise<string> {
  if (!user) throw marketplaceNotFound();
  if (user.status !== 'active') throw userInactive();
  const provider = deps.registry.get(type);
  if (!provider) throw sourceNotOffered(type);
  const now = deps.clock.now();
  const { nonce, state, expiresAt } = newState(deps.vault, type, now);
  const pkce = provider.adapter.pkce ? pkcePair() : null;
  await deps.states.add({
    _id: nonce,
    user_id: user._id,
    source_type: type,
    expires_at: expiresAt.toISOString(),
    code_verifier: pkce ? deps.vault.seal(pkce.verifier) : null,
    return_url: deps.vault.seal(marketplaceUrl),
  });
  return provider.adapter.authorizeUrl(provider.settings, { state, ...(pkce ? { codeChallenge: pkce.challenge } : {}) });
}
