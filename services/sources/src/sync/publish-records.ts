/**
 * Fetched records leave for the records service (its one ingestion path) as `source-records`
 * messages, written through the outbox with the connection update that records the progress:
 * progress is never ahead of what was handed over, and a crash between the two re-fetches the
 * window (ingestion's checksums make the repeat a no-op).
 */
import { randomUUID } from 'node:crypto';
import { RecordInput, SOURCE_RECORDS_MAX_PER_MESSAGE, sourceRecordsTopic } from '@wellstream/contracts';
import type { Outbox, PendingMessage, StateCheck } from '@wellstream/outbox';
import type { Connection } from '../connections/connection';
import { atSeq } from '../connections/connection-events';

/** Also bounded by size: intraday records of 1,440 samples are ~60 KB each. */
const MAX_MESSAGE_BYTES = 600_000;

export function recordMessages(outbox: Outbox, c: Connection, records: RecordInput[], at: string, check: StateCheck = atSeq(c)): PendingMessage[] {
  const messages: PendingMessage[] = [];
  let chunk: RecordInput[] = [];
  let bytes = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    messages.push(
      outbox.message(
        sourceRecordsTopic,
        { type: 'source.records', id: randomUUID(), user_id: c.user_id, organization_id: c.organization_id, source_type: c.source_type, records: chunk, fetched_at: at },
        check,
      ),
    );
    chunk = [];
    bytes = 0;
  };
  for (const r of records) {
    const size = JSON.stringify(r).length;
    if (chunk.length >= SOURCE_RECORDS_MAX_PER_MESSAGE || (chunk.length > 0 && bytes + size > MAX_MESSAGE_BYTES)) flush();
    chunk.push(r);
    bytes += size;
  }
  flush();
  return messages;
}
