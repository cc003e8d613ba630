/**
 * Paging of the operator's lists, the same shape as the user list's: `offset` (default 0),
 * `limit` 1..100 (default 25), `sort` `created_at` (oldest first, the default) or `-created_at`;
 * answered in `meta` with the `total`. Other query parameters (the `token`) are ignored.
 */
import Joi from 'joi';
import { validate } from '@wellstream/errors';

export const LIST_SORTS = ['created_at', '-created_at'] as const;

export interface PageQuery {
  offset: number;
  limit: number;
  sort: (typeof LIST_SORTS)[number];
}

export interface PageMeta extends PageQuery {
  total: number;
}

const pageSchema = Joi.object<PageQuery>({
  offset: Joi.number().integer().min(0).max(1_000_000_000).default(0),
  limit: Joi.number().integer().min(1).max(100).default(25),
  sort: Joi.string()
    .valid(...LIST_SORTS)
    .default('created_at'),
});

/** 400 {"errors":{field:[…]}} for a bad paging parameter; other parameters are dropped. */
export const parsePageQuery = (query: unknown): PageQuery => validate(pageSchema, query ?? {}, { kind: 'bad_request', code: 'INVALID_PAGING', joi: { stripUnknown: true } });

/** The store's find options for a page: by creation, `_id` breaking ties so pages never overlap. */
export const findOptionsOf = (q: PageQuery) => {
  const direction = q.sort === '-created_at' ? -1 : 1;
  return { sort: { created_at: direction, _id: direction } as Record<string, 1 | -1>, skip: q.offset, limit: q.limit };
};
