/**
 * Query of GET /streams: `q` (`name=<term>` exact, `name~<term>` case-insensitive contains),
 * `sort` (`-created_at` default, `created_at`, `updated_at`, `-updated_at`), `offset`, `limit`
 * (default 25, at most 100). Anything else malformed is a 400 keyed by the parameter.
 */
import Joi from 'joi';
import { STREAM_SORTS } from '@wellstream/catalog';

export const SORTS = STREAM_SORTS;
export type StreamSort = (typeof SORTS)[number];

export interface ListStreamsQuery {
  q?: string;
  sort: StreamSort;
  offset: number;
  limit: number;
}

export const listStreamsQuery = Joi.object<ListStreamsQuery>({
  q: Joi.string()
    .pattern(/^name[=~].+$/s)
    .messages({ 'string.pattern.base': 'q must be name=<term> (exact) or name~<term> (contains)' }),
  sort: Joi.string()
    .valid(...SORTS)
    .default('-created_at'),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
  limit: Joi.number().integer().min(1).max(100).default(25),
}).options({ stripUnknown: true });

export interface NameQuery {
  exact: boolean;
  term: string;
}

export const parseNameQuery = (q: string): NameQuery => ({ exact: q[4] === '=', term: q.slice(5) });
