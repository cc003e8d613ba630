/**
 * The user a marketplace URL belongs to, from this service's projection. A user created a moment
 * ago may not have reached the projection yet, so an unknown token is looked up again for a few
 * seconds (awaited timers, not a busy loop) before the answer is "not found".
 */
import type { UserProjectionRepository } from '../users/user-projection.repository';
import type { ProjectedUser } from '../users/user-projection';

export async function marketplaceUser(users: UserProjectionRepository, token: string, waitMs: number): Promise<ProjectedUser | null> {
  if (!/^mkt_[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const user = await users.byMarketplaceToken(token);
    if (user || Date.now() >= deadline) return user;
    await new Promise((r) => setTimeout(r, 100));
  }
}
