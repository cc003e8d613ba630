/**
 * One page of an organization's users (deleted users excluded), with the paging metadata.
 */
import type { UsersDeps } from '../users.deps';
import type { User } from '../user';
import type { ListUsersQuery } from './list-users.schema';

export async function listUsers(
  deps: UsersDeps,
  organizationId: string,
  query: ListUsersQuery,
): Promise<{ users: User[]; meta: { offset: number; limit: number; total: number; sort: string } }> {
  const direction = query.sort.startsWith('-') ? -1 : 1;
  const page = await deps.repo.listVisible(organizationId, { offset: query.offset, limit: query.limit, sort: { created_at: direction } });
  return { users: page.users, meta: { offset: query.offset, limit: query.limit, total: page.total, sort: query.sort } };
}
