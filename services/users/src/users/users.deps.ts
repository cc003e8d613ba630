/**
 * What the user and marketplace use cases need, handed in by the composition root.
 */
import type { UserEvents } from './user-events';
import type { UserRepository } from './user.repository';
import type { SourceProviderRepository } from '../sources/source-provider.repository';
import type { Clock } from '@wellstream/clock';

export interface UsersDeps {
  repo: UserRepository;
  events: UserEvents;
  clock: Clock;
  /** Which cloud sources this deployment offers (projection of `source-providers`). */
  providers: SourceProviderRepository;
  /** Absolute marketplace URL for a token, on the public gateway address. */
  marketplaceUrl: (token: string) => string;
  /** Whether an organization exists (the operator's reads answer 404 otherwise). */
  organizations: { find(organizationId: string): Promise<unknown> };
  /** The stored answers of idempotent writes: a deleted user's go with the deletion. */
  idempotentAnswers: { forgetUser(userId: string): Promise<unknown> };
  /** Resolves once every service that caches mobile tokens has applied what was just published. */
  tokenCopiesApplied?: () => Promise<void>;
}
