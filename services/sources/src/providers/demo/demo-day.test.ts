import { validateRecords } from '@wellstream/contracts';
import { generateDemoDay } from './demo-day';

const END = (date: string) => new Date(`${date}T23:59:59Z`);
const metric = (r: any, type: string) => r.metrics.find((m: any) => m.type === type)?.value;
const byType = (records: any[], type: string) => records.filter((r) => r.type === type);
const LATER = new Date('2030-01-01T00:00:00Z');

describe('generateDemoDay', () => {
  it('is deterministic for the same user, date, zone and time', () => {
    const a = generateDemoDay('user-1', '2024-05-10', 'Europe/Berlin', LATER);
    const b = generateDemoDay('user-1', '2024-05-10', 'Europe/Berlin', LATER);
    expect(a).toEqual(b);
    expect(generateDemoDay('user-2', '2024-05-10', 'Europe/Berlin', LATER)).not.toEqual(a);
    expect(generateDemoDay('user-1', '2024-05-11', 'Europe/Berlin', LATER)).not.toEqual(a);
  });

  it('produces records that pass ingestion validation', () => {
    for (const tz of ['Europe/Berlin', 'Asia/Kolkata', 'America/Los_Angeles', null]) {
      const records = generateDemoDay('user-v', '2024-03-31', tz, LATER);
      expect(() => validateRecords({ records })).not.toThrow();
    }
  });

  it('a complete day has summary, intraday, sleep, weight and three meals with segments', () => {
    const day = generateDemoDay('user-1', '2024-05-10', 'Europe/Berlin', LATER);
    expect(byType(day, 'summary')).toHaveLength(1);
    expect(byType(day, 'intraday')).toHaveLength(1);
    expect(byType(day, 'sleep')).toHaveLength(1);
    expect(byType(day, 'measurement')).toHaveLength(1);
    const meals = byType(day, 'nutrition');
    expect(meals.map((m) => m.log_id)).toEqual(['demo-breakfast-2024-05-10', 'demo-lunch-2024-05-10', 'demo-dinner-2024-05-10']);
    for (const m of meals) expect(m.segments.length).toBeGreaterThanOrEqual(2);
    // The day starts at local midnight in the user's zone.
    expect(byType(day, 'summary')[0].start_time).toBe('2024-05-09T22:00:00Z');
  });

  it('has plausible values and varies from day to day', () => {
    const weights: number[] = [];
    let workouts = 0;
    for (let d = 1; d <= 28; d++) {
      const date = `2024-02-${String(d).padStart(2, '0')}`;
      const day = generateDemoDay('user-plausible', date, 'UTC', LATER);
      const summary = byType(day, 'summary')[0];
      const intraday = byType(day, 'intraday')[0];
      const steps = metric(summary, 'steps');
      expect(steps).toBeGreaterThan(2000);
      expect(steps).toBeLessThan(30000);
      const stepSeries = intraday.metrics.find((m: any) => m.type === 'steps');
      expect(stepSeries.samples.reduce((a: number, s: any) => a + s.value, 0)).toBe(steps);
      const hr = intraday.metrics.find((m: any) => m.type === 'heart_rate').samples.map((s: any) => s.value);
      expect(hr).toHaveLength(288);
      expect(Math.min(...hr)).toBeGreaterThanOrEqual(40);
      expect(Math.max(...hr)).toBeLessThanOrEqual(200);
      const rhr = metric(summary, 'resting_heart_rate');
      expect(rhr).toBeGreaterThanOrEqual(45);
      expect(rhr).toBeLessThanOrEqual(75);
      const sleep = byType(day, 'sleep')[0];
      const asleepH = metric(sleep, 'sleep_duration') / 3600;
      expect(asleepH).toBeGreaterThan(5);
      expect(asleepH).toBeLessThan(10);
      expect(metric(summary, 'energy_burned')).toBe(metric(summary, 'active_energy_burned') + metric(summary, 'basal_energy_burned'));
      const kcal = byType(day, 'nutrition').reduce((a, m) => a + metric(m, 'energy_consumed'), 0);
      expect(kcal).toBeGreaterThan(900);
      expect(kcal).toBeLessThan(3500);
      weights.push(metric(byType(day, 'measurement')[0], 'body_weight'));
      workouts += byType(day, 'workout').length;
    }
    expect(Math.max(...weights) - Math.min(...weights)).toBeLessThan(3);
    expect(new Set(weights).size).toBeGreaterThan(10);
    expect(workouts).toBeGreaterThan(3);
    expect(workouts).toBeLessThan(25);
  });

  it('includes only what happened by uptoTime, and a partial day is a prefix of the full day', () => {
    const full = generateDemoDay('user-1', '2024-05-10', 'UTC', END('2024-05-11'));
    const noon = generateDemoDay('user-1', '2024-05-10', 'UTC', new Date('2024-05-10T12:00:00Z'));
    expect(byType(noon, 'sleep')).toHaveLength(0);
    expect(byType(noon, 'nutrition').map((m) => m.log_id)).toEqual(['demo-breakfast-2024-05-10']);
    expect(byType(noon, 'nutrition')[0]).toEqual(byType(full, 'nutrition')[0]);
    expect(byType(noon, 'measurement')).toEqual(byType(full, 'measurement'));
    const summaryNoon = byType(noon, 'summary')[0];
    expect(summaryNoon.log_id).toBe(byType(full, 'summary')[0].log_id);
    expect(summaryNoon.end_time).toBe('2024-05-10T12:00:00Z');
    expect(metric(summaryNoon, 'steps')).toBeLessThanOrEqual(metric(byType(full, 'summary')[0], 'steps'));
    const hrNoon = byType(noon, 'intraday')[0].metrics[0].samples;
    expect(hrNoon).toHaveLength(144);
    expect(hrNoon).toEqual(byType(full, 'intraday')[0].metrics[0].samples.slice(0, 144));
    expect(generateDemoDay('user-1', '2024-05-10', 'UTC', new Date('2024-05-09T23:00:00Z'))).toEqual([]);
  });

  it('gives DST days 23 or 25 hours of samples without duplicate times', () => {
    const spring = byType(generateDemoDay('user-1', '2024-03-31', 'Europe/Berlin', LATER), 'intraday')[0].metrics[0].samples;
    const autumn = byType(generateDemoDay('user-1', '2024-10-27', 'Europe/Berlin', LATER), 'intraday')[0].metrics[0].samples;
    expect(spring).toHaveLength(276);
    expect(autumn).toHaveLength(300);
    expect(new Set(autumn.map((s: any) => s.time)).size).toBe(300);
  });
});
