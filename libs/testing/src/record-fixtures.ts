/**
 * A complete record as records publishes it in `data` events, for tests that put events on the log
 * themselves: producers validate the whole record, so a fixture must be one.
 */
import type { ResourceType } from '@wellstream/catalog';
import type { RecordMetric, RecordOf, RecordPayload } from '@wellstream/contracts';

type Common = Omit<RecordOf<'measurement'>, 'type' | 'metrics'>;
export type RecordFixture = Pick<Common, 'id' | 'user' | 'start_time'> & Partial<Common> & { metrics?: RecordMetric[] };

export function testRecord(type: ResourceType, fields: RecordFixture): RecordPayload {
  const { metrics = [{ type: 'body_weight', unit: 'kg', value: 70, origin: 'device' }], ...rest } = fields;
  const common: Common = {
    version: '1.0',
    checksum: 'fixture',
    log_id: fields.id,
    end_time: fields.start_time,
    utc_offset: 0,
    offset_origin: 'source',
    source: { type: 'withings' },
    created_at: new Date().toISOString(),
    deleted_at: null,
    user_notes: [],
    tags: [],
    ...rest,
  };
  switch (type) {
    case 'measurement':
      return { ...common, type, metrics };
    case 'nutrition':
      return { ...common, type, category: 'other', metrics, segments: [] };
    case 'sleep':
      return { ...common, type, metrics, stages: [] };
    case 'summary':
      return { ...common, type, category: 'daily', metrics, segments: [] };
    case 'workout':
      return { ...common, type, category: 'running', metrics, segments: [] };
    case 'intraday':
    case 'cgm':
      return { ...common, type, metrics: [] };
  }
}
