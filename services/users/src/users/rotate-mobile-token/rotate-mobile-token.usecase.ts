/**
 * Issues a new mobile token (a lost phone): the old one stops working at once. The change is
 * answered only after the services that authenticate mobile tokens from their own projection have
 * applied it (`tokenCopiesApplied`), so no upload with the old token is accepted after the answer.
 */
import type { UsersDeps } from '../users.deps';
import { newMobileToken, User } from '../user';
import { findVisibleUser } from '../find-user';
import { withRetry } from '../user.repository';

export async function rotateMobileToken(deps: UsersDeps, organizationId: string, uid: string): Promise<User> {
  const user = await withRetry(async () => {
    const current = await findVisibleUser(deps.repo, organizationId, uid);
    return deps.events.userChanged('mobile_token.rotated', deps.repo.change(current, { mobile_token: newMobileToken(), updated_at: deps.clock.now().toISOString() }));
  });
  await deps.tokenCopiesApplied?.();
  return user;
}
