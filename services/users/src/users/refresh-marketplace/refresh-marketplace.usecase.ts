/**
 * Issues a new marketplace token (and so a new URL); the old one stops working at once because
 * lookups go by the stored token. Connected sources are untouched.
 */
import type { UsersDeps } from '../users.deps';
import { newMarketplaceToken, User } from '../user';
import { findVisibleUser } from '../find-user';
import { withRetry } from '../user.repository';

export async function refreshMarketplace(deps: UsersDeps, organizationId: string, uid: string): Promise<User> {
  return withRetry(async () => {
    const user = await findVisibleUser(deps.repo, organizationId, uid);
    return deps.events.userChanged('marketplace.refreshed', deps.repo.change(user, { marketplace_token: newMarketplaceToken(), updated_at: deps.clock.now().toISOString() }));
  });
}
