/**
 * A stored message row of the embedded log and the message it reads as. A slice keeps the topic's
 * partitions and offsets (offsets within a slice have gaps, as after compaction), so a position in
 * a slice is also a position in the topic.
 */
import type { LogMessage } from './event-log.port';

export interface Row {
  seq: number;
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: string | Buffer;
  headers: string;
  ts: number;
  tenant: string | null;
}

/** `value`: the row's value already inflated (log-values.ts). */
export const toMessage = (r: Row, value: string): LogMessage => ({
  topic: r.topic,
  partition: r.partition,
  offset: r.offset,
  key: r.key,
  value,
  headers: JSON.parse(r.headers) as Record<string, string>,
  timestamp: r.ts,
  ...(r.tenant ? { tenant: r.tenant } : {}),
});

export interface SeqMessage extends LogMessage {
  seq: number;
}

/** Where an append landed: readers of these partitions (and of these tenants' slices) need waking. */
export interface AppendedTo {
  partition: number;
  tenant?: string;
}
