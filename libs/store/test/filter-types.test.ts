/**
 * Filters are typed by the document they query: `tsc -p tsconfig.json` (npm run typecheck, part of
 * npm test) fails if a misspelled field, a path into an array or a field of another document type
 * compiles. The runtime check below only shows the accepted filters still match as before.
 */
import type { Doc, Filter } from '../src';
import { matchesFilter } from '../src/filter-match';

interface Person extends Doc {
  name: string;
  age?: number | null;
  address?: { city: string; geo?: { lat: number } };
  tags: string[];
}

const anna: Person = { _id: 'a', name: 'Anna', age: 30, address: { city: 'Oslo', geo: { lat: 59.9 } }, tags: ['x'] };

const accepted: Filter<Person>[] = [
  { _id: 'a' },
  { name: 'Anna', age: { $gte: 18 } },
  { 'address.city': 'Oslo' },
  { 'address.geo.lat': { $gt: 59 } },
  { age: { $exists: true } },
];

// @ts-expect-error a misspelled field
const misspelled: Filter<Person> = { nmae: 'Anna' };
// @ts-expect-error a misspelled nested field
const misspelledNested: Filter<Person> = { 'address.ctiy': 'Oslo' };
// @ts-expect-error filters do not reach into arrays
const intoArray: Filter<Person> = { 'tags.0': 'x' };
// @ts-expect-error a value that is neither a scalar nor operators
const objectValue: Filter<Person> = { address: { city: 'Oslo' } };

describe('Filter<T>', () => {
  it('accepts the document’s own field paths, and they match as before', () => {
    expect(accepted.map((f) => matchesFilter(anna, f))).toEqual([true, true, true, true, true]);
    expect(matchesFilter(anna, { 'address.city': 'Rome' } satisfies Filter<Person>)).toBe(false);
  });

  it('the rejected filters above are rejected by the compiler only; at runtime they are plain objects', () => {
    expect([misspelled, misspelledNested, intoArray, objectValue].every((f) => typeof f === 'object')).toBe(true);
  });
});
