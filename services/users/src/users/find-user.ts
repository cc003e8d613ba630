/**
 * Finding a user the way the customer API sees them: by uid inside one organization, never a
 * deleted one (deletion removes access for good).
 */
import type { UserRepository } from './user.repository';
import type { User } from './user';
import { userNotFound } from './user.errors';

export async function findVisibleUser(repo: UserRepository, organizationId: string, uid: string): Promise<User> {
  const user = await repo.findByUid(organizationId, uid);
  if (!user || user.status === 'deleted') throw userNotFound(uid);
  return user;
}
