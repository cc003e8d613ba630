/**
 * GET /organizations/:org_id/users query: paging (offset, limit 1..100, default 25) and sort
 * (created_at ascending by default, as in the documented example). Other query parameters (the
 * `token`) are ignored.
 */
import Joi from 'joi';
import { USER_SORTS } from '@wellstream/catalog';

// Published (the catalog's, as the endpoints declare it).
export { USER_SORTS };
export type UserSort = (typeof USER_SORTS)[number];

export interface ListUsersQuery {
  offset: number;
  limit: number;
  sort: UserSort;
}

export const listUsersSchema = Joi.object<ListUsersQuery>({
  offset: Joi.number().integer().min(0).max(1_000_000_000).default(0),
  limit: Joi.number().integer().min(1).max(100).default(25),
  sort: Joi.string()
    .valid(...USER_SORTS)
    .default('created_at'),
}).unknown(true);
