import { addDays, daysBetween, localDateOf, localToUtc, zoneOffsetSeconds } from './time-zone';

describe('zone offsets (Intl, DST included)', () => {
  it('follows Europe/Berlin across the March and October changes', () => {
    expect(zoneOffsetSeconds('Europe/Berlin', new Date('2024-03-31T00:59:59Z'))).toBe(3600);
    expect(zoneOffsetSeconds('Europe/Berlin', new Date('2024-03-31T01:00:00Z'))).toBe(7200);
    expect(zoneOffsetSeconds('Europe/Berlin', new Date('2024-10-27T00:59:59Z'))).toBe(7200);
    expect(zoneOffsetSeconds('Europe/Berlin', new Date('2024-10-27T01:00:00Z'))).toBe(3600);
  });

  it('handles half-hour zones and the southern hemisphere', () => {
    expect(zoneOffsetSeconds('Asia/Kolkata', new Date('2024-06-01T12:00:00Z'))).toBe(19800);
    expect(zoneOffsetSeconds('America/St_Johns', new Date('2024-01-15T12:00:00Z'))).toBe(-12600);
    expect(zoneOffsetSeconds('Australia/Sydney', new Date('2024-01-15T12:00:00Z'))).toBe(39600);
    expect(zoneOffsetSeconds('Australia/Sydney', new Date('2024-07-15T12:00:00Z'))).toBe(36000);
  });

  it('is exact around a change that falls inside a quarter hour (St. John\'s changed at 00:01 local until 2011)', () => {
    // 2010-03-14 00:01 NST (-3:30) = 03:31 UTC: minute by minute around it, each second of the minute before it.
    const exact = (at: Date) => {
      const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: 'America/St_Johns', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(at).map((x) => [x.type, x.value]));
      return (Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - Math.floor(at.getTime() / 1000) * 1000) / 1000;
    };
    const from = Date.UTC(2010, 2, 14, 3, 0, 0);
    for (let t = from; t < from + 3600_000; t += 60_000) expect(zoneOffsetSeconds('America/St_Johns', new Date(t))).toBe(exact(new Date(t)));
    for (let t = from + 30 * 60_000; t < from + 32 * 60_000; t += 1000) expect(zoneOffsetSeconds('America/St_Johns', new Date(t))).toBe(exact(new Date(t)));
    expect(zoneOffsetSeconds('America/St_Johns', new Date(from + 30 * 60_000))).toBe(-12600);
    expect(zoneOffsetSeconds('America/St_Johns', new Date(from + 32 * 60_000))).toBe(-9000);
  });

  it('converts local wall-clock times to UTC', () => {
    expect(localToUtc('Europe/Berlin', '2024-07-01', 0).toISOString()).toBe('2024-06-30T22:00:00.000Z');
    expect(localToUtc('Asia/Kolkata', '2024-07-01', 9 * 3600).toISOString()).toBe('2024-07-01T03:30:00.000Z');
    expect(localToUtc('America/New_York', '2024-03-10', 86_400).toISOString()).toBe('2024-03-11T04:00:00.000Z');
  });

  it('computes local dates and date arithmetic', () => {
    expect(localDateOf(new Date('2024-03-01T23:30:00Z'), 3600)).toBe('2024-03-02');
    expect(localDateOf(new Date('2024-03-01T00:30:00Z'), -3600)).toBe('2024-02-29');
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(daysBetween('2024-01-01', '2024-01-31')).toBe(30);
  });
});
