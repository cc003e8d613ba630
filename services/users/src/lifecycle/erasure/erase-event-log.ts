/**
 * The event log's share of an erasure: every message naming the user in every topic that carries
 * user data, in the partition the user's id picks (they are all partitioned by user id), and the
 * customer's own slice of `events`; the export parts of the user's exports (partitioned by export
 * id). Embedded: the rows go now. Kafka: a tombstone for every key of the user in the compacted
 * topics (`events`: the keys found in the customer's topic, applied there and to the shared topic;
 * `users`: the user id), applied at the next compaction; until then consumers skip the user (the
 * projections are gone, and streams keeps the erased ids). The delete-policy topics
 * (`source-*`, `user-data-exports`) expire on Kafka by their retention (7 days, 1 day).
 * Not erased: `user-data-requests` (the erasure request itself, read by every service, expires
 * in 7 days) and `audit-log` (the record of what was done; the kept copy loses the uid).
 */
import { customerEventsTopic, sourceConnectionsTopic, sourceDetectionsTopic, sourceRecordsTopic, userDataExportsTopic, userEventsTopic } from '@wellstream/contracts';
import { SOURCE_TYPES } from '@wellstream/catalog';
import type { EventLog } from '@wellstream/bus';
import type { UserDataRequest } from '@wellstream/contracts';

const SOURCE_TOPICS = [sourceConnectionsTopic, sourceRecordsTopic, sourceDetectionsTopic];

export async function eraseUserFromEventLog(log: EventLog, request: UserDataRequest, exportIds: string[]): Promise<number> {
  const quoted = JSON.stringify(request.user_id);
  const names = (value: string) => value.includes(quoted);
  const counts = await Promise.all([
    log.eraseMessages(customerEventsTopic.spec.name, { partitionKey: request.user_id, tenant: request.customer_id, matches: names }),
    // Keyed by user id: Kafka needs no read to tombstone it.
    log.eraseMessages(userEventsTopic.spec.name, { partitionKey: request.user_id, matches: names, keys: [request.user_id] }),
    ...SOURCE_TOPICS.map((t) => log.eraseMessages(t.spec.name, { partitionKey: request.user_id, matches: names, keys: SOURCE_TYPES.map((type) => `${request.user_id}:${type}`) })),
    ...exportIds.map((id) => log.eraseMessages(userDataExportsTopic.spec.name, { partitionKey: id, matches: (v) => v.includes(JSON.stringify(id)) })),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}
