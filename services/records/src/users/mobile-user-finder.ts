/**
 * Finds the user behind a mobile token, tolerating the projection's lag (read-your-writes): the
 * users service answers a create-user before records has applied the `users` event (it is
 * published right after the answer, and on a freshly started platform the projection consumer may
 * still be joining its group). An unknown but well-formed token is therefore looked up again, with
 * a growing pause, for up to `waitMs` before it is refused. Malformed tokens are refused at once,
 * and only `maxWaiting` lookups wait at a time, so made-up tokens cannot pile up held requests.
 */
import type { ProjectedUser } from './user-projection';
import type { UserProjectionRepository } from './user-projection.repository';

/** The users service issues `mob_` + 32 random bytes in base64url; tests may use other long tokens. */
const WELL_FORMED = /^[A-Za-z0-9_-]{20,200}$/;

export interface MobileUserFinder {
  find(token: string): Promise<ProjectedUser | null>;
}

export function mobileUserFinder(users: UserProjectionRepository, options: { waitMs: number; maxWaiting?: number }): MobileUserFinder {
  const maxWaiting = options.maxWaiting ?? 200;
  let waiting = 0;
  return {
    async find(token) {
      const found = await users.byMobileToken(token);
      if (found || options.waitMs <= 0 || !WELL_FORMED.test(token) || waiting >= maxWaiting) return found;
      waiting++;
      try {
        const deadline = Date.now() + options.waitMs;
        for (let pause = 25; Date.now() < deadline; pause = Math.min(pause * 2, 500)) {
          await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(1, deadline - Date.now()))));
          const user = await users.byMobileToken(token);
          if (user) return user;
        }
        return null;
      } finally {
        waiting--;
      }
    },
  };
}
