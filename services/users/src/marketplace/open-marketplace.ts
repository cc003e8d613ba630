/**
 * A marketplace link is the token in it. It opens only for an active user holding that token now:
 * refreshed-away tokens, deleted and suspended users all get the same 404.
 */
import type { UserRepository } from '../users/user.repository';
import type { User } from '../users/user';
import { marketplaceNotFound } from '../users/user.errors';

export async function openMarketplace(repo: UserRepository, token: string): Promise<User> {
  const user = await repo.findByMarketplaceToken(token);
  if (!user || user.status !== 'active') throw marketplaceNotFound();
  return user;
}
