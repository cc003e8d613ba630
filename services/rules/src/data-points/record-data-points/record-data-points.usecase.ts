/**
 * Keeps the data points rules watch, from `data` events (the event payload is the record). Only
 * metric types some rule of the user watches are kept: a rule judges only data from its own
 * observation time, so data nobody watched is never needed. An updated record replaces its points;
 * a deleted record (deleted_at set) removes them. Resolves to the metric types whose points
 * changed, so the caller can evaluate the rules watching them. The user's rules are looked up once
 * per batch of events read together (`batch`): each of them was published before that lookup.
 */
import type { CustomerEvent, ReadBatch } from '@wellstream/contracts';
import type { RuleRepository } from '../../rules/rule.repository';
import { DataPointDoc, dataPointId, DataPointRepository } from '../data-point.repository';

export interface RecordDataPointsDeps {
  rules: RuleRepository;
  points: DataPointRepository;
}

export async function recordDataPoints(deps: RecordDataPointsDeps, event: CustomerEvent, batch: ReadBatch): Promise<string[]> {
  if (event.event_type !== 'data') return [];
  const record = event.payload;
  if (record.deleted_at) return deps.points.deleteRecord(event.user_id, record.id);

  const rules = await batch.shared(`rules ${event.user_id}`, () => deps.rules.listForUser(event.user_id));
  const watched = new Set(rules.map((r) => r.metric.type));
  // Points are only kept for watched metrics (rule-deps drops a metric's points once no rule
  // watches it), so a user whose rules watch nothing has no points to replace: no query at all.
  if (watched.size === 0) return [];
  const time = new Date(record.start_time);
  const points = new Map<string, DataPointDoc>();
  if (!Number.isNaN(time.getTime())) {
    for (const m of record.metrics) {
      if (!watched.has(m.type)) continue;
      const id = dataPointId(record.id, m.type, m.unit, m.origin);
      // Normalized ISO text, so stored times compare correctly as strings.
      points.set(id, { _id: id, record_id: record.id, user_id: event.user_id, metric_type: m.type, unit: m.unit, origin: m.origin, time: time.toISOString() });
    }
  }
  return deps.points.replaceRecord(event.user_id, record.id, [...points.values()]);
}
