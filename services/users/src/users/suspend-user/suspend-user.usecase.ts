/**
 * Operator suspension: a suspended user keeps their data but the marketplace closes, and
 * user.suspended makes the rules service delete the user's rules. Unsuspending restores `active`.
 * Repeating either is harmless (no new event when nothing changes).
 */
import type { UsersDeps } from '../users.deps';
import type { User } from '../user';
import { findVisibleUser } from '../find-user';
import { withRetry } from '../user.repository';

export async function setSuspended(deps: UsersDeps, organizationId: string, uid: string, suspended: boolean): Promise<User> {
  const target = suspended ? 'suspended' : 'active';
  return withRetry(async () => {
    const current = await findVisibleUser(deps.repo, organizationId, uid);
    if (current.status === target) return current;
    return deps.events.userChanged(suspended ? 'user.suspended' : 'user.unsuspended', deps.repo.change(current, { status: target, updated_at: deps.clock.now().toISOString() }));
  });
}
