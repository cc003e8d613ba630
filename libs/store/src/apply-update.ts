/**
 * Applies the Update subset to a plain object (the SQLite adapter keeps whole JSON documents).
 */
import type { Filter, Operators, Scalar, Update } from './document-store.port';

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let obj = target;
  for (const p of parts.slice(0, -1)) {
    if (typeof obj[p] !== 'object' || obj[p] === null) obj[p] = {};
    obj = obj[p] as Record<string, unknown>;
  }
  obj[parts[parts.length - 1]] = value;
}

export function getPath(source: unknown, path: string): unknown {
  let cur: unknown = source;
  for (const p of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function unsetPath(target: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  let obj: unknown = target;
  for (const p of parts.slice(0, -1)) {
    if (typeof obj !== 'object' || obj === null) return;
    obj = (obj as Record<string, unknown>)[p];
  }
  if (typeof obj === 'object' && obj !== null) delete (obj as Record<string, unknown>)[parts[parts.length - 1]];
}

export function applyUpdate<T>(doc: T, update: Update, inserting: boolean): T {
  const out = structuredClone(doc) as Record<string, unknown>;
  for (const [k, v] of Object.entries(update.$set ?? {})) setPath(out, k, structuredClone(v));
  if (inserting) for (const [k, v] of Object.entries(update.$setOnInsert ?? {})) setPath(out, k, structuredClone(v));
  for (const k of Object.keys(update.$unset ?? {})) unsetPath(out, k);
  for (const [k, v] of Object.entries(update.$inc ?? {})) setPath(out, k, Number(getPath(out, k) ?? 0) + v);
  return out as T;
}

/** The document an upsert starts from: the filter's equality conditions. */
export function seedFromFilter(filter: Filter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, cond] of Object.entries(filter)) {
    if (cond === null || typeof cond !== 'object') setPath(out, k, cond);
    else if ((cond as Operators).$eq !== undefined) setPath(out, k, (cond as Operators).$eq as Scalar);
  }
  return out;
}
