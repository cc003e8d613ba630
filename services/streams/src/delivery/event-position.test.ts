import { alreadySeenIn, MAX_RESUME_POSITIONS, parsePositions } from './event-position';

describe('resume positions of a stream connection', () => {
  it('reads one id or a list, keeping the latest of a partition named twice', () => {
    expect(parsePositions(undefined, 'f')).toBeUndefined();
    expect(parsePositions('3-1042', 'f')).toEqual([{ partition: 3, offset: 1042 }]);
    expect(parsePositions('3-10, 7-88,3-12', 'f')).toEqual([
      { partition: 3, offset: 12 },
      { partition: 7, offset: 88 },
    ]);
  });

  it('refuses anything else with a 400 naming the field', () => {
    for (const bad of ['x', '3-', '3-1,', ',3-1', '3-1;4-2', Array.from({ length: MAX_RESUME_POSITIONS + 1 }, (_, i) => `${i}-1`).join(',')]) {
      expect(() => parsePositions(bad, 'Last-Event-ID')).toThrow(expect.objectContaining({ kind: 'bad_request', fieldErrors: { 'Last-Event-ID': [expect.any(String)] } }));
    }
  });

  it('skips what each named partition had, and nothing of other partitions', () => {
    const resume = parsePositions('3-10,7-88', 'f');
    expect(alreadySeenIn(resume, { partition: 3, offset: 10 })).toBe(true);
    expect(alreadySeenIn(resume, { partition: 3, offset: 11 })).toBe(false);
    expect(alreadySeenIn(resume, { partition: 7, offset: 50 })).toBe(true);
    expect(alreadySeenIn(resume, { partition: 1, offset: 0 })).toBe(false);
  });
});
