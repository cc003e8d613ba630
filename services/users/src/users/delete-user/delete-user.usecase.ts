/**
 * Deletes a user: access ends at once and for good (every lookup skips deleted users, the
 * marketplace answers 404), but the data is kept (status `deleted`, spec: retained 7 years).
 * user.deleted tells the other services to drop the user from their projections.
 */
import type { UsersDeps } from '../users.deps';
import type { User } from '../user';
import { findVisibleUser } from '../find-user';
import { withRetry } from '../user.repository';

export async function deleteUser(deps: UsersDeps, organizationId: string, uid: string): Promise<User> {
  const deleted = await withRetry(async () => {
    const user = await findVisibleUser(deps.repo, organizationId, uid);
    const now = deps.clock.now().toISOString();
    return deps.events.userChanged('user.deleted', deps.repo.change(user, { status: 'deleted', deleted_at: now, updated_at: now }));
  });
  // A retried creation must not hand the deleted user out again.
  await deps.idempotentAnswers.forgetUser(deleted.id);
  return deleted;
}
