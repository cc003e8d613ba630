/**
 * Looks users up in the projection, tolerating its lag: a customer who creates a user and at once
 * adds a rule must not get a 404 only because the user event is still on its way. An unknown uid
 * is therefore re-read a few times (bounded) before it is reported as unknown.
 */
import type { KnownUser, UserProjectionRepository } from './user-projection.repository';

export interface UserDirectory {
  find(organizationId: string, uid: string): Promise<KnownUser | null>;
}

export function userDirectory(users: UserProjectionRepository, options: { waitMs: number; pollMs?: number }): UserDirectory {
  const pollMs = options.pollMs ?? 50;
  return {
    async find(organizationId, uid) {
      const deadline = Date.now() + options.waitMs;
      for (;;) {
        const user = await users.findByUid(organizationId, uid);
        if (user || Date.now() >= deadline) return user;
        await new Promise((r) => setTimeout(r, Math.min(pollMs, Math.max(1, deadline - Date.now()))));
      }
    },
  };
}
