/**
 * Records made of many samples: the daily summary of a local day, the intraday series of an hour,
 * the sleep of a night. A bucket holds its parts by sample id, so a later sample or a deletion
 * rebuilds the whole record under the same log_id (the service updates it in place).
 */
import { utc, type DeletionStub, type Metric, type Series, type WellstreamRecord } from '../records';
import type { Part } from './entries';
import { sleepMetrics } from './health-connect';
import { localDay, localDayStart, phoneOffsetAt } from './zone';

export type Bucket = Record<string, Part>;

const HOUR = 3600_000;
const dayOffset = (p: Part) => p.offset ?? phoneOffsetAt(new Date(p.start));

/** The bucket a part belongs to. */
export function bucketKey(p: Part): string {
  const start = new Date(p.start);
  switch (p.kind) {
    case 'summary':
      return `summary|${p.source}|${localDay(start, dayOffset(p))}`;
    case 'intraday':
      return `intraday|${p.source}|${p.metric}|${p.start.slice(0, 13)}`;
    case 'sleep':
      // A night belongs to the local day it started on, counting from noon to noon.
      return `sleep|${p.source}|${localDay(new Date(start.getTime() - 12 * HOUR), dayOffset(p))}`;
  }
}

/** The deletion of a bucket's record, once its last part is gone. */
export function bucketDeletion(key: string): DeletionStub {
  const [kind, source, a, b] = key.split('|') as [Part['kind'], Part['source'], string, string | undefined];
  const log_id = kind === 'summary' ? `daily-${a}` : kind === 'intraday' ? `${a}-${b}` : `sleep-${a}`;
  return { type: kind, source: { type: source }, log_id, deleted: true };
}

/** The record a bucket's parts make, or undefined when nothing is left (the caller deletes it). */
export function buildBucket(key: string, bucket: Bucket): WellstreamRecord | undefined {
  const parts = Object.values(bucket).sort((a, b) => a.start.localeCompare(b.start));
  if (!parts.length) return undefined;
  const [kind, source] = key.split('|') as [Part['kind'], Part['source']];
  const known = parts.every((p) => p.offset !== undefined);
  const offset = known ? { utc_offset: parts[parts.length - 1].offset as number } : {};
  const device = parts[parts.length - 1].device;
  const src = { type: source, ...(device ? { device } : {}) };
  if (kind === 'summary') {
    const day = key.split('|')[2];
    const start = localDayStart(day, dayOffset(parts[0]));
    const metrics = new Map<string, Metric>();
    for (const p of parts) {
      const m = metrics.get(p.metric) ?? { type: p.metric, unit: p.unit, value: 0, origin: 'device' as const };
      // Resting heart rate is a value of the day (the latest), everything else adds up.
      m.value = p.metric === 'resting_heart_rate' ? p.value : m.value + p.value;
      metrics.set(p.metric, m);
    }
    // A local day is 23 or 25 hours long on a DST change: its end uses the offset of its last sample.
    const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
    const last = parts[parts.length - 1];
    const end = localDayStart(nextDay, last.offset ?? phoneOffsetAt(new Date(start.getTime() + 24 * HOUR)));
    return { type: 'summary', category: 'daily', source: src, log_id: `daily-${day}`, start_time: utc(start), end_time: utc(end), ...offset, metrics: [...metrics.values()].map(round) };
  }
  if (kind === 'intraday') {
    const metric = key.split('|')[2];
    const hour = key.split('|')[3];
    const series: Series = { type: metric, unit: parts[0].unit, origin: 'device', granularity: 'PT1M', samples: parts.slice(0, 1440).map((p) => ({ time: p.start, value: p.value })) };
    return { type: 'intraday', source: src, log_id: `${metric}-${hour}`, start_time: `${hour}:00:00Z`, end_time: utc(Date.parse(`${hour}:00:00Z`) + HOUR - 1000), ...offset, metrics: [series] };
  }
  const night = key.split('|')[2];
  const start = parts[0].start;
  const end = parts.reduce((e, p) => (p.end > e ? p.end : e), parts[0].end);
  const stages = parts
    .filter((p) => p.metric === 'light' || p.metric === 'deep' || p.metric === 'rem' || p.metric === 'awake')
    .map((p) => ({ stage: p.metric as 'light' | 'deep' | 'rem' | 'awake', start_time: p.start, end_time: p.end }))
    .slice(0, 500);
  const metrics = sleepMetrics(start, end, stages);
  if (!stages.length) {
    const asleep = parts.filter((p) => p.metric === 'asleep').reduce((s, p) => s + p.value, 0);
    if (asleep) metrics.push({ type: 'sleep_duration', unit: 's', value: asleep, origin: 'device' });
  }
  return { type: 'sleep', source: src, log_id: `sleep-${night}`, start_time: start, end_time: end, ...offset, stages, metrics };
}

const round = (m: Metric): Metric => ({ ...m, value: Math.round(m.value * 1000) / 1000 });
