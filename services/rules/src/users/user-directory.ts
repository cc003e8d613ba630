/**
 * Looks users up in the projection, reading its own writes: a customer who creates a user and at
 * once adds a rule must not get a 404 only because the user event is still on its way. The users
 * service answers once the event is on the log, so an unknown uid waits only while this service's
 * projection is behind that log (libs/bus read-your-writes.ts), never when it is caught up.
 */
import type { ReadYourWrites } from '@wellstream/bus';
import type { KnownUser, UserProjectionRepository } from './user-projection.repository';

export interface UserDirectory {
  find(organizationId: string, uid: string): Promise<KnownUser | null>;
}

export function userDirectory(users: UserProjectionRepository, fresh: ReadYourWrites): UserDirectory {
  return {
    async find(organizationId, uid) {
      return (await fresh.find(() => users.findByUid(organizationId, uid))) ?? null;
    },
  };
}
