/** Small pieces every Polar mapping shares: the source, value metrics, the window rule. */
import type { IngestRecord, ValueMetric } from '../provider.port';

export const SOURCE = { type: 'polar' } as const;

export type Origin = 'device' | 'manual' | 'unknown';

/** One value metric, or none when Polar gave no value (absent is never turned into 0). */
export function metric(type: string, unit: string, value: number | undefined, origin: Origin = 'device'): ValueMetric[] {
  return value === undefined ? [] : [{ type, unit, value, origin }];
}

/**
 * Records whose start_time falls in [start, end): consecutive windows never lose a record and never
 * return one twice, whatever Polar returned around the edges.
 */
export function inWindow(records: IngestRecord[], window: { start: Date; end: Date }): IngestRecord[] {
  const start = window.start.getTime();
  const end = window.end.getTime();
  return records.filter((r) => {
    const t = Date.parse(r.start_time);
    return t >= start && t < end;
  });
}
