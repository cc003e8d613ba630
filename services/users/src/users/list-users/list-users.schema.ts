/**
 * GET /organizations/:org_id/users query: paging (offset, limit 1..100, default 25) and sort
 * (created_at ascending by default, as in the documented example). Other query parameters (the
 * `token`) are ignored.
 */
import Joi from 'joi';

export const USER_SORTS = ['created_at', '-created_at'] as const;
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
