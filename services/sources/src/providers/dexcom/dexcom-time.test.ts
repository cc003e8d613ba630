import { dexcomDate, parseDexcomTime, requestRange, MAX_WINDOW_MS, utcOffsetOf } from './dexcom-time';

describe('Dexcom times', () => {
  it('writes request times without zone or milliseconds', () => {
    expect(dexcomDate(new Date('2025-02-06T09:12:35.678Z'))).toBe('2025-02-06T09:12:35');
  });

  it('reads naive and zoned times, and refuses what is not a time', () => {
    expect(parseDexcomTime('2025-02-06T09:12:35')).toEqual({ ms: Date.parse('2025-02-06T09:12:35Z') });
    expect(parseDexcomTime('2025-02-06T01:12:35-08:00')).toEqual({ ms: Date.parse('2025-02-06T09:12:35Z'), offsetS: -8 * 3600 });
    expect(parseDexcomTime('2025-02-06T09:12:35.5+0530')?.offsetS).toBe(5.5 * 3600);
    expect(parseDexcomTime('2025-02-06T09:12:35Z')?.offsetS).toBe(0);
    for (const bad of ['2025-02-30T00:00:00', 'yesterday', 42, null, undefined, '2025-02-06 09:12:35']) expect(parseDexcomTime(bad)).toBeUndefined();
  });

  it('takes the offset displayTime states (mobile apps), else the rounded difference (receivers)', () => {
    expect(utcOffsetOf('2025-02-06T09:12:35+00:00', '2025-02-06T01:12:35-08:00', 'iOS')).toBe(-8 * 3600);
    expect(utcOffsetOf('2025-02-06T09:12:35', '2025-02-06T01:12:35', 'receiver')).toBe(-8 * 3600);
    // A hand-set receiver clock 3 minutes off still reads as UTC+1; Nepal's +05:45 survives rounding.
    expect(utcOffsetOf('2025-02-06T09:12:35', '2025-02-06T10:15:35', 'receiver')).toBe(3600);
    expect(utcOffsetOf('2025-02-06T09:00:00', '2025-02-06T14:45:00', 'receiver')).toBe(5 * 3600 + 45 * 60);
    // A receiver showing UTC may know no local time at all: left out. A mobile app at +00:00 is UTC.
    expect(utcOffsetOf('2025-02-06T09:12:35', '2025-02-06T09:12:35', 'receiver')).toBeUndefined();
    expect(utcOffsetOf('2025-02-06T09:12:35+00:00', '2025-02-06T09:12:35+00:00', 'android')).toBe(0);
    // A clock a day off is no zone.
    expect(utcOffsetOf('2025-02-06T09:12:35', '2025-02-07T09:12:35', 'receiver')).toBeUndefined();
    expect(utcOffsetOf('2025-02-06T09:12:35', 'garbage', 'receiver')).toBeUndefined();
    expect(utcOffsetOf(undefined, '2025-02-06T09:12:35', 'receiver')).toBeUndefined();
  });

  it('splits a range longer than 30 days with a cursor, and refuses a cursor of another window', () => {
    const from = Date.parse('2025-01-01T00:00:00Z');
    const to = from + MAX_WINDOW_MS + 3600_000;
    const first = requestRange(from, to, undefined)!;
    expect(first).toEqual({ from, to: from + MAX_WINDOW_MS, next: new Date(from + MAX_WINDOW_MS).toISOString() });
    expect(requestRange(from, to, first.next)).toEqual({ from: from + MAX_WINDOW_MS, to });
    expect(requestRange(from, to, 'nonsense')).toBeUndefined();
    expect(requestRange(from, to, new Date(to).toISOString())).toBeUndefined();
    expect(requestRange(from, from + 1000, undefined)).toEqual({ from, to: from + 1000 });
  });
});
