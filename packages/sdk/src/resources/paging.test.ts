import { recordWindows } from './paging';

it('cuts a range of days into 30-day windows, inclusive, the last one short', () => {
  expect(recordWindows('2026-01-01', '2026-01-01')).toEqual([{ start_date: '2026-01-01', end_date: '2026-01-01' }]);
  expect(recordWindows('2026-01-01', '2026-03-15')).toEqual([
    { start_date: '2026-01-01', end_date: '2026-01-30' },
    { start_date: '2026-01-31', end_date: '2026-03-01' },
    { start_date: '2026-03-02', end_date: '2026-03-15' },
  ]);
  expect(recordWindows(new Date('2026-05-02T23:59:59Z'), '2026-05-01')).toEqual([]);
  expect(() => recordWindows('yesterday', '2026-01-01')).toThrow(/start_date must be a date/);
});
