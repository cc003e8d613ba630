/**
 * Whether a query's shape is served by one of its collection's declared indexes, judged the way a
 * MongoDB-API server with real indexes plans it (equality, then sort, then range):
 * - a filter that pins `_id` (a value or `$in`) is served by the primary key;
 * - otherwise an index serves it when its leading keys are the fields the filter pins by equality
 *   (a value, `$eq`, `$in`; any order, possibly none), and then
 *   - with a sort: the sort's keys come next, in the index's order, all the same direction as the
 *     index or all reversed (a key pinned by equality may be left out), so nothing is sorted in
 *     memory; with no pinned key, the filter must bound one of the index's keys by a range, or be
 *     empty with a limit (the first documents in index order);
 *   - without a sort: at least its first key is pinned or bounded by a range;
 * - the filter's other conditions (on fields outside that prefix, `$ne`, `$exists`, …) are checked
 *   on the documents the index found.
 * Everything else reads the whole collection, or the whole index, or sorts all matches in memory.
 */
import type { CollectionSpec, Filter, IndexSpec, Operators, SortSpec } from './document-store.port';

export type Constraint = 'eq' | 'in' | 'range' | 'other';

export function constraintOf(cond: Filter[string]): Constraint {
  if (cond === null || typeof cond !== 'object') return 'eq';
  const ops = Object.keys(cond as Operators);
  if (ops.includes('$eq')) return 'eq';
  if (ops.includes('$in')) return 'in';
  if (ops.some((o) => ['$gt', '$gte', '$lt', '$lte'].includes(o))) return 'range';
  return 'other';
}

export interface QueryShape {
  filter: Filter;
  sort?: SortSpec;
  limit?: number;
}

const ID_INDEX: IndexSpec = { fields: { _id: 1 }, unique: true };

/** Why `index` does not serve the shape, or null when it does. */
function mismatch(shape: QueryShape, index: IndexSpec): string | null {
  const keys = Object.entries(index.fields);
  const cons = new Map(Object.entries(shape.filter).map(([f, c]) => [f, constraintOf(c)]));
  const pinned = (f: string) => cons.get(f) === 'eq' || cons.get(f) === 'in';
  const ranged = (f: string) => cons.get(f) === 'range';
  let i = 0;
  while (i < keys.length && pinned(keys[i][0])) i++;
  const sort = Object.entries(shape.sort ?? {}).filter(([f]) => cons.get(f) !== 'eq');
  if (sort.length) {
    const next = keys.slice(i, i + sort.length);
    const same = sort.every(([f, d], n) => next[n]?.[0] === f && next[n][1] === d);
    const reversed = sort.every(([f, d], n) => next[n]?.[0] === f && next[n][1] === -d);
    if (!same && !reversed) return `sort ${sort.map(([f]) => f).join(',')} does not follow its pinned keys (sorted in memory)`;
    const bounded = keys.some(([k]) => ranged(k)) || (cons.size === 0 && shape.limit !== undefined);
    if (i === 0 && !bounded) return 'the whole index read in sort order';
    return null;
  }
  if (i === 0 && !(keys.length && ranged(keys[0][0]))) return 'its first key is not constrained';
  return null;
}

/**
 * The index (`_id` included) that serves the shape, or why none does, naming each declared
 * index's mismatch.
 */
export function servingIndex(shape: QueryShape, spec: CollectionSpec): { index: IndexSpec } | { reason: string } {
  const id = shape.filter._id;
  if (id !== undefined && ['eq', 'in'].includes(constraintOf(id))) return { index: ID_INDEX };
  const reasons: string[] = [];
  for (const index of [ID_INDEX, ...(spec.indexes ?? [])]) {
    const why = mismatch(shape, index);
    if (why === null) return { index };
    reasons.push(`(${Object.keys(index.fields).join(', ')}): ${why}`);
  }
  return { reason: `no declared index serves it: ${reasons.join('; ')}` };
}
