/**
 * Finds the user behind a mobile token, reading its own writes by log position: the users service
 * answers a create-user only once the user's snapshot is on the `users` log (libs/outbox
 * `publishWithinMs`), so an unknown token waits only while this service's projection has not yet
 * handled what that log held when the lookup missed (libs/bus read-your-writes.ts). On a platform
 * that is caught up, a made-up or mistyped token is refused at once; a user created a moment ago
 * is found. WELLSTREAM_RECORDS_USER_WAIT_MS bounds the wait when the projection is behind (a burst,
 * a rebuild, a consumer still joining). Malformed tokens are refused without asking the log.
 */
import type { ReadYourWrites } from '@wellstream/bus';
import type { ProjectedUser } from './user-projection';
import type { UserProjectionRepository } from './user-projection.repository';

/** The users service issues `mob_` + 32 random bytes in base64url; tests may use other long tokens. */
const WELL_FORMED = /^[A-Za-z0-9_-]{20,200}$/;

export interface MobileUserFinder {
  find(token: string): Promise<ProjectedUser | null>;
}

/** `fresh`: read-your-writes on the projection's group (USER_PROJECTION_GROUP on the users topic). */
export function mobileUserFinder(users: UserProjectionRepository, fresh: ReadYourWrites): MobileUserFinder {
  return {
    async find(token) {
      if (!WELL_FORMED.test(token)) return users.byMobileToken(token);
      return (await fresh.find(() => users.byMobileToken(token))) ?? null;
    },
  };
}
