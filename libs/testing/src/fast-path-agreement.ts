/**
 * Holds the fast validation path (libs/contracts fast-validation.ts) against joi itself: whenever
 * the fast path answers for a value, joi accepts that value and returns an equal one. Values come
 * from fixtures and seeded mutations of them, so a failure names a case that can be run again.
 */
import { fastValidate } from '@wellstream/contracts';

// joi's types as fastValidate takes them (this package has no joi of its own).
type Schema = Parameters<typeof fastValidate>[0];
type Options = NonNullable<Parameters<typeof fastValidate>[2]>;

/** A small seeded generator. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a mutation puts in a place: wrong types, edge numbers, near-miss times, empties. */
export const REPLACEMENTS: unknown[] = [null, '', 'x', 'data', 'measurement', 'rule', 0, -0, 1.5, -3, 2 ** 60, NaN, Infinity, '70', true, 'true', [], {}, ['x'], [1], undefined,
  '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.123456Z', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00+01:00', ' 2026-01-01T00:00:00Z',
  '1999-01-01T00:00:00Z', '2099-12-31T23:59:59Z', 'kg', 'lb', 'x'.repeat(201), 'x'.repeat(2001)];

const fresh = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v);

/** Every place in a value: [container, key] pairs. */
function places(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []) {
  const visit = (container: Record<string, unknown> | unknown[], key: string | number, v: unknown) => {
    out.push([container, key]);
    places(v, out);
  };
  if (Array.isArray(value)) value.forEach((v, i) => visit(value, i, v));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(value as Record<string, unknown>, k, v);
  return out;
}

/** One or two changes at random places: a key dropped, an unknown key added, a value replaced. */
export function mutate(value: Record<string, unknown>, next: () => number, replacements: unknown[] = REPLACEMENTS): unknown {
  // JSON copies, not structuredClone: jest's sandbox would give those another realm's prototypes.
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  const all = places(copy);
  for (let n = 1 + Math.floor(next() * 2); n > 0 && all.length; n--) {
    const [container, key] = all[Math.floor(next() * all.length)];
    const roll = next();
    if (roll < 0.2) delete (container as Record<string | number, unknown>)[key];
    else if (roll < 0.3 && !Array.isArray(container)) container[`extra_${n}`] = 'unknown';
    else (container as Record<string | number, unknown>)[key] = fresh(replacements[Math.floor(next() * replacements.length)]);
  }
  return copy;
}

/** True when the fast path answered (and then joi agrees, or the test fails); false when it left the value to joi. */
export function fastPathAgrees(schema: Schema, value: unknown, options: Options): boolean {
  const fast = fastValidate(schema, value, options);
  if (!fast) return false;
  const joi = schema.validate(value, options);
  expect(joi.error?.message).toBeUndefined();
  expect(fast.value).toStrictEqual(joi.value);
  return true;
}

/** Runs `count` seeded mutations of `value` under each option set; returns how many the fast path answered. */
export function mutationsAgree(schema: Schema, value: Record<string, unknown>, options: Options[], count = 500, seed = 42): number {
  const next = seededRandom(seed);
  let answered = 0;
  for (let i = 0; i < count; i++) {
    const mutated = mutate(value, next);
    for (const o of options) if (fastPathAgrees(schema, mutated, o)) answered++;
  }
  return answered;
}
