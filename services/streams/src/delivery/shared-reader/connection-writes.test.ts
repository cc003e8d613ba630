import { ConnectionWrites, IN_FLIGHT_MS, UNREAD_BYTES } from './connection-writes';

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('what a gone connection may not have received', () => {
  it('never goes back: an offset at or before the last one written is already had', () => {
    const w = new ConnectionWrites();
    w.wrote(3, 10, 100);
    expect(w.has(3, 10)).toBe(true);
    expect(w.has(3, 9)).toBe(true);
    expect(w.has(3, 11)).toBe(false);
    expect(w.has(4, 0)).toBe(false);
  });

  it('after a close: per partition, the first offset written in the last seconds, not before', () => {
    const c = clock();
    const w = new ConnectionWrites(IN_FLIGHT_MS, c.now);
    w.wrote(1, 5, 100); // long ago
    c.t += 3 * IN_FLIGHT_MS;
    w.wrote(1, 9, 100);
    w.wrote(2, 40, 100);
    c.t += 1_000;
    w.wrote(1, 12, 100);
    expect(w.unconfirmed(false, 10_000)).toEqual(new Map([[1, 9], [2, 40]]));
    c.t += 2 * IN_FLIGHT_MS;
    expect(w.unconfirmed(false, 10_000)).toEqual(new Map());
  });

  it('after a drop for not reading: everything of the last UNREAD_BYTES, however old', () => {
    const c = clock();
    const w = new ConnectionWrites(IN_FLIGHT_MS, c.now);
    w.wrote(1, 5, 1_000);
    c.t += 60 * IN_FLIGHT_MS;
    w.wrote(2, 7, 1_000);
    expect(w.unconfirmed(true, 10_000)).toEqual(new Map([[1, 5], [2, 7]]));
  });

  it('after a drop, forgets writes once twice UNREAD_BYTES came after them', () => {
    const w = new ConnectionWrites();
    const frame = UNREAD_BYTES / 8;
    for (let i = 0; i < 40; i++) w.wrote(i % 2, i, frame);
    const from = w.unconfirmed(true, 10_000);
    // The newest 16 MiB are offsets 32..39; at most 32 MiB back: from offset 24 on.
    expect(from.get(0)).toBeLessThanOrEqual(32);
    expect(from.get(1)).toBeLessThanOrEqual(33);
    expect(from.get(0)).toBeGreaterThanOrEqual(24);
    expect(from.get(1)).toBeGreaterThanOrEqual(25);
  });

  it('reaches back no further than the log can read again', () => {
    const w = new ConnectionWrites();
    w.wrote(1, 100, 10);
    w.wrote(1, 50_000, 10);
    expect(w.unconfirmed(true, 10_000).get(1)).toBe(40_001);
  });
});
