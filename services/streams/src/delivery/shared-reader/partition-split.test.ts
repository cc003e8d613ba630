import { splitPartitions } from './partition-split';

const counts = (m: Map<number, string>) => {
  const out: Record<string, number> = {};
  for (const c of m.values()) out[c] = (out[c] ?? 0) + 1;
  return out;
};
const P = [...Array(12).keys()];

describe('splitPartitions', () => {
  it('gives every partition to one client, shares differing by at most one', () => {
    const m = splitPartitions(P, new Set(['a', 'b', 'c', 'd', 'e']), new Map());
    expect([...m.keys()].sort((x, y) => x - y)).toEqual(P);
    expect(Object.values(counts(m)).sort()).toEqual([2, 2, 2, 3, 3]);
  });

  it('keeps partitions where they are when a client joins, moving only what the newcomer takes', () => {
    const two = splitPartitions(P, new Set(['a', 'b']), new Map());
    const three = splitPartitions(P, new Set(['a', 'b', 'c']), two);
    const moved = P.filter((p) => two.get(p) !== three.get(p));
    expect(moved.length).toBe(4);
    expect(moved.every((p) => three.get(p) === 'c')).toBe(true);
  });

  it('hands only the leaver’s partitions to the others when a client leaves', () => {
    const three = splitPartitions(P, new Set(['a', 'b', 'c']), new Map());
    const two = splitPartitions(P, new Set(['a', 'c']), three);
    for (const p of P) if (three.get(p) !== 'b') expect(two.get(p)).toBe(three.get(p));
    expect(counts(two)).toEqual({ a: 6, c: 6 });
  });

  it('costs what the partitions cost, not the clients: 12 partitions among 100,000 clients', () => {
    const many = new Set(Array.from({ length: 100_000 }, (_, i) => `c${i}`));
    const first = splitPartitions(P, many, new Map());
    expect(counts(first)).toEqual(Object.fromEntries(P.map((p) => [`c${p}`, 1])));
    // The first owner leaves: only its partition moves, to the first client holding none.
    many.delete('c0');
    const after = splitPartitions(P, many, first);
    expect(after.get(0)).toBe('c12');
    for (const p of P.slice(1)) expect(after.get(p)).toBe(first.get(p));
  });

  it('leaves clients beyond the partition count idle, and owns nothing without clients', () => {
    expect(counts(splitPartitions([0, 1], new Set(['a', 'b', 'c']), new Map()))).toEqual({ a: 1, b: 1 });
    expect(splitPartitions(P, new Set([]), new Map()).size).toBe(0);
  });
});
