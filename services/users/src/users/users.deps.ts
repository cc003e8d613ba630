/**
 * What the user and marketplace use cases need, handed in by the composition root.
 */
import type { UserEvents } from './user-events';
import type { UserRepository } from './user.repository';

export interface UsersDeps {
  repo: UserRepository;
  events: UserEvents;
  /** ISO timestamp of "now" (tests may pin it). */
  now: () => string;
  /** Absolute marketplace URL for a token, on the public gateway address. */
  marketplaceUrl: (token: string) => string;
}
