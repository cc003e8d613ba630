import { splitPartitions } from './partition-split';

const counts = (m: Map<number, string>) => {
  const out: Record<string, number> = {};
  for (const c of m.values()) out[c] = (out[c] ?? 0) + 1;
  return out;
};
const P = [...Array(12).keys()];

describe('splitPartitions', () => {
  it('gives every partition to one client, shares differing by at most one', () => {
    const m = splitPartitions(P, ['a', 'b', 'c', 'd', 'e'], new Map());
    expect([...m.keys()].sort((x, y) => x - y)).toEqual(P);
    expect(Object.values(counts(m)).sort()).toEqual([2, 2, 2, 3, 3]);
  });

  it('keeps partitions where they are when a client joins, moving only what the newcomer takes', () => {
    const two = splitPartitions(P, ['a', 'b'], new Map());
    const three = splitPartitions(P, ['a', 'b', 'c'], two);
    const moved = P.filter((p) => two.get(p) !== three.get(p));
    expect(moved.length).toBe(4);
    expect(moved.every((p) => three.get(p) === 'c')).toBe(true);
  });

  it('hands only the leaver’s partitions to the others when a client leaves', () => {
    const three = splitPartitions(P, ['a', 'b', 'c'], new Map());
    const two = splitPartitions(P, ['a', 'c'], three);
    for (const p of P) if (three.get(p) !== 'b') expect(two.get(p)).toBe(three.get(p));
    expect(counts(two)).toEqual({ a: 6, c: 6 });
  });

  it('leaves clients beyond the partition count idle, and owns nothing without clients', () => {
    expect(counts(splitPartitions([0, 1], ['a', 'b', 'c'], new Map()))).toEqual({ a: 1, b: 1 });
    expect(splitPartitions(P, [], new Map()).size).toBe(0);
  });
});
