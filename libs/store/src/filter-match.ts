/**
 * The port's filter and sort semantics in plain JavaScript, MongoDB-style (a missing field equals
 * null; ranges compare only values of the same kind). Used where a backend cannot run a filter
 * itself efficiently: the MongoDB adapter on FerretDB fetches by primary key, then checks the
 * rest of the filter here.
 */
import { getPath } from './apply-update';
import type { Filter, Operators, Scalar, SortSpec } from './document-store.port';

const same = (v: unknown, c: Scalar) => (c === null ? v === null || v === undefined : v === c);

function comparable(v: unknown, c: Scalar): boolean {
  return v !== null && v !== undefined && c !== null && typeof v === typeof c && typeof v !== 'object';
}

function holds(v: unknown, op: string, arg: unknown): boolean {
  switch (op) {
    case '$eq':
      return same(v, arg as Scalar);
    case '$ne':
      return !same(v, arg as Scalar);
    case '$gt':
      return comparable(v, arg as Scalar) && (v as Scalar)! > (arg as Scalar)!;
    case '$gte':
      return comparable(v, arg as Scalar) && (v as Scalar)! >= (arg as Scalar)!;
    case '$lt':
      return comparable(v, arg as Scalar) && (v as Scalar)! < (arg as Scalar)!;
    case '$lte':
      return comparable(v, arg as Scalar) && (v as Scalar)! <= (arg as Scalar)!;
    case '$in':
      return (arg as Scalar[]).some((c) => same(v, c));
    case '$nin':
      return !(arg as Scalar[]).some((c) => same(v, c));
    case '$exists':
      return (v !== undefined) === Boolean(arg);
    default:
      throw new Error(`unsupported filter operator ${op}`);
  }
}

export function matchesFilter(doc: unknown, filter: Filter): boolean {
  for (const [path, cond] of Object.entries(filter)) {
    const v = getPath(doc, path);
    if (cond === null || typeof cond !== 'object') {
      if (!same(v, cond)) return false;
      continue;
    }
    for (const [op, arg] of Object.entries(cond as Operators)) if (!holds(v, op, arg)) return false;
  }
  return true;
}

/** MongoDB's order across kinds: missing/null, numbers, strings, objects, booleans. */
function rank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 4;
  return 3;
}

export function compareBySort(sort: SortSpec): (a: unknown, b: unknown) => number {
  const fields = Object.entries(sort);
  return (a, b) => {
    for (const [path, dir] of fields) {
      const x = getPath(a, path);
      const y = getPath(b, path);
      const rx = rank(x);
      const ry = rank(y);
      let c = rx - ry;
      if (c === 0 && rx !== 0 && rx !== 3) c = (x as Scalar)! < (y as Scalar)! ? -1 : (x as Scalar)! > (y as Scalar)! ? 1 : 0;
      if (c !== 0) return c * dir;
    }
    return 0;
  };
}

/** The _id values a filter pins (`_id: "x"`, `{$eq}` or `{$in}` of strings), or null. */
export function pinnedIds(filter: Filter): string[] | null {
  const cond = filter._id;
  if (typeof cond === 'string') return [cond];
  if (cond === null || typeof cond !== 'object') return null;
  const ops = cond as Operators;
  if (typeof ops.$eq === 'string') return [ops.$eq];
  if (Array.isArray(ops.$in) && ops.$in.every((x) => typeof x === 'string')) return [...new Set(ops.$in as string[])];
  return null;
}

/** The string a filter pins a field to by equality, or null. */
export function pinnedValue(filter: Filter, field: string): string | null {
  const cond = filter[field];
  if (typeof cond === 'string') return cond;
  if (cond !== null && typeof cond === 'object' && typeof (cond as Operators).$eq === 'string') return (cond as Operators).$eq as string;
  return null;
}

/** The sort keys of a paged read, `_id` last; one direction for all (a row-value comparison has one). */
export function pageKeys(sort: SortSpec): [string, 1 | -1][] {
  const keys = Object.entries(sort) as [string, 1 | -1][];
  if (!keys.some(([f]) => f === '_id')) keys.push(['_id', keys[0]?.[1] ?? 1]);
  if (keys.some(([, d]) => d !== keys[0][1])) throw new Error('findPages: every sort key must go the same direction');
  return keys;
}
