/**
 * Connecting and disconnecting a demo or phone-app source: updates the user's `sources`, then
 * publishes source.connected/disconnected (users topic; records starts the demo generator on it)
 * and a `connection` event for the customer. Repeating a connect or a disconnect changes nothing
 * and publishes nothing, so detections and double clicks are harmless. Cloud sources are refused:
 * they connect through their provider's sign-in, which the sources service runs (the gateway sends
 * their marketplace connect, reconnect and disconnect there), and their entries follow its events.
 */
import { PROVIDER_SOURCE_TYPES, sourceDefinition } from '@wellstream/catalog';
import type { UsersDeps } from '../../users/users.deps';
import type { User } from '../../users/user';
import { withRetry } from '../../users/user.repository';
import { marketplaceNotFound, providerSourceNotHere, unknownSource } from '../../users/user.errors';

type Deps = Pick<UsersDeps, 'repo' | 'events' | 'clock'>;

export async function connectSource(deps: Deps, userId: string, type: string): Promise<User> {
  const source = sourceDefinition(type);
  if (!source) throw unknownSource(type);
  if (source.kind === 'cloud') throw providerSourceNotHere(source.name);
  return withRetry(async () => {
    const current = await activeUser(deps, userId);
    if (current.sources.some((s) => s.type === type)) return current;
    const now = deps.clock.now().toISOString();
    return deps.events.sourceChanged(deps.repo.change(current, { sources: [...current.sources, { type, connected_at: now }], updated_at: now }), type, 'connected', now);
  });
}

/**
 * Also removes entries the catalog no longer lists or that no provider keeps any more (e.g. a
 * cloud source connected by the simulated consent of earlier releases); the sources service's own
 * providers disconnect there, so their connection (tokens, subscriptions) ends too.
 */
export async function disconnectSource(deps: Deps, userId: string, type: string): Promise<User> {
  const source = sourceDefinition(type);
  if (source?.kind === 'cloud' && (PROVIDER_SOURCE_TYPES as readonly string[]).includes(type)) throw providerSourceNotHere(source.name);
  return withRetry(async () => {
    const current = await activeUser(deps, userId);
    if (!current.sources.some((s) => s.type === type)) {
      if (!source) throw unknownSource(type);
      return current;
    }
    const now = deps.clock.now().toISOString();
    return deps.events.sourceChanged(deps.repo.change(current, { sources: current.sources.filter((s) => s.type !== type), updated_at: now }), type, 'disconnected', now);
  });
}

async function activeUser(deps: Deps, userId: string): Promise<User> {
  const user = await deps.repo.findById(userId);
  if (!user || user.status !== 'active') throw marketplaceNotFound();
  return user;
}
