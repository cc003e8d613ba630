/**
 * The user a marketplace URL belongs to, from this service's projection of the `users` topic. The
 * users service publishes every user change before answering it, so once the projection's group
 * has handled what the log holds, the lookup sees the user as the users service last answered:
 * a user created a moment ago, a marketplace token just refreshed, a suspension, a time zone just
 * chosen (read-your-writes by log position: @wellstream/bus readYourWrites).
 */
import type { ReadYourWrites } from '@wellstream/bus';
import type { UserProjectionRepository } from '../users/user-projection.repository';
import type { ProjectedUser } from '../users/user-projection';

const TOKEN = /^mkt_[A-Za-z0-9_-]{20,100}$/;

export function marketplaceUsers(users: UserProjectionRepository, fresh: ReadYourWrites): (token: string) => Promise<ProjectedUser | null> {
  return (token) => (TOKEN.test(token) ? fresh.latest(() => users.byMarketplaceToken(token)) : Promise.resolve(null));
}
