/**
 * Connecting and disconnecting a source: updates the user's `sources`, then publishes
 * source.connected/disconnected (users topic; records starts the demo generator on it) and a
 * `connection` event for the customer. Repeating a connect or a disconnect changes nothing and
 * publishes nothing, so detections and double clicks are harmless.
 */
import { sourceDefinition } from '@wellstream/catalog';
import type { UsersDeps } from '../../users/users.deps';
import type { User } from '../../users/user';
import { withRetry } from '../../users/user.repository';
import { consentRequired, marketplaceNotFound, unknownSource } from '../../users/user.errors';
import { needsConsent } from '../marketplace.view';

export interface ConnectOptions {
  /** The user allowed access on the provider's consent step (required for cloud/mobile sources). */
  consent: boolean;
}

export async function connectSource(deps: UsersDeps, userId: string, type: string, options: ConnectOptions): Promise<User> {
  const source = sourceDefinition(type);
  if (!source) throw unknownSource(type);
  if (needsConsent(source) && !options.consent) throw consentRequired(source.name);
  return withRetry(async () => {
    const current = await activeUser(deps, userId);
    if (current.sources.some((s) => s.type === type)) return current;
    const now = deps.clock.now().toISOString();
    return deps.events.sourceChanged(deps.repo.change(current, { sources: [...current.sources, { type, connected_at: now }], updated_at: now }), type, 'connected', now);
  });
}

export async function disconnectSource(deps: UsersDeps, userId: string, type: string): Promise<User> {
  if (!sourceDefinition(type)) throw unknownSource(type);
  return withRetry(async () => {
    const current = await activeUser(deps, userId);
    if (!current.sources.some((s) => s.type === type)) return current;
    const now = deps.clock.now().toISOString();
    return deps.events.sourceChanged(deps.repo.change(current, { sources: current.sources.filter((s) => s.type !== type), updated_at: now }), type, 'disconnected', now);
  });
}

async function activeUser(deps: UsersDeps, userId: string): Promise<User> {
  const user = await deps.repo.findById(userId);
  if (!user || user.status !== 'active') throw marketplaceNotFound();
  return user;
}
