/**
 * Keeps the data points rules watch, from `data` events (the event payload is the record). Only
 * metric types some rule of the user watches are kept: a rule judges only data from its own
 * observation time, so data nobody watched is never needed. An updated record replaces its points;
 * a deleted record (deleted_at set) removes them. Resolves to the metric types whose points
 * changed, so the caller can evaluate the rules watching them.
 */
import type { CustomerEvent } from '@wellstream/contracts';
import type { RuleRepository } from '../../rules/rule.repository';
import { DataPointDoc, dataPointId, DataPointRepository } from '../data-point.repository';

export interface RecordDataPointsDeps {
  rules: RuleRepository;
  points: DataPointRepository;
}

interface RecordMetric {
  type?: unknown;
  unit?: unknown;
  origin?: unknown;
}

export async function recordDataPoints(deps: RecordDataPointsDeps, event: CustomerEvent): Promise<string[]> {
  if (event.event_type !== 'data') return [];
  const record = event.payload as { id?: unknown; start_time?: unknown; deleted_at?: unknown; metrics?: unknown };
  const recordId = typeof record.id === 'string' ? record.id : event.key;
  if (record.deleted_at) return deps.points.deleteRecord(event.user_id, recordId);

  const watched = new Set((await deps.rules.listForUser(event.user_id)).map((r) => r.metric.type));
  const startTime = typeof record.start_time === 'string' ? record.start_time : event.start_time;
  const time = startTime ? new Date(startTime) : undefined;
  const points = new Map<string, DataPointDoc>();
  if (watched.size > 0 && time && !Number.isNaN(time.getTime())) {
    for (const m of Array.isArray(record.metrics) ? (record.metrics as RecordMetric[]) : []) {
      if (!m || typeof m.type !== 'string' || !watched.has(m.type)) continue;
      const unit = typeof m.unit === 'string' ? m.unit : null;
      const origin = typeof m.origin === 'string' ? m.origin : 'unknown';
      const id = dataPointId(recordId, m.type, unit, origin);
      // Normalized ISO text, so stored times compare correctly as strings.
      points.set(id, { _id: id, record_id: recordId, user_id: event.user_id, metric_type: m.type, unit, origin, time: time.toISOString() });
    }
  }
  return deps.points.replaceRecord(event.user_id, recordId, [...points.values()]);
}
