/**
 * The one-time move of a shared topic's history into tenant topics, for a log written before the
 * topic had tenant slices. It reads the shared topic as the consumer group
 * `migrate.<topic>.tenants` up to the end as it was when the run started, copies every message
 * that was published without a tenant into its tenant's topic (tenant from the JSON field the spec
 * names; the original key, partition key and headers kept), and commits as it goes: a run that is
 * stopped resumes where it stopped, and a second run copies nothing twice. Messages published with
 * a tenant are already in their slice and are skipped.
 */
import type { Kafka } from 'kafkajs';
import type { Logger } from '@wellstream/logging';
import type { OutgoingMessage } from './event-log.port';
import type { KafkaAdmin } from './kafka-admin';
import { PARTITION_KEY_HEADER, toLogMessage } from './kafka-message';
import type { KafkaPublisher } from './kafka-producer';
import type { KafkaTenantTopics } from './kafka-tenant-topics';
import { tenantFromValue } from './tenant-field';

export interface TenantMigrationParams {
  kafka: Kafka;
  admin: KafkaAdmin;
  publisher: KafkaPublisher;
  tenants: KafkaTenantTopics;
  /** Plain name of the shared topic, and its name on the broker. */
  topic: string;
  kafkaTopic: string;
  field: string;
  kafkaGroupId: string;
  sliceTopic(tenant: string): string;
  logger: Logger;
}

const RUN_DEADLINE_MS = 60 * 60_000;

export async function migrateToTenantTopics(p: TenantMigrationParams): Promise<number> {
  const marks = await p.admin.watermarks(p.kafkaTopic);
  const committed = new Map((await p.admin.committedOffsets(p.kafkaGroupId, p.kafkaTopic)).map((c) => [c.partition, c.offset]));
  // Partition → the end it must reach in this run.
  const pending = new Map<number, number>();
  for (const m of marks) if (Math.max(m.low, committed.get(m.partition) ?? -1) < m.high) pending.set(m.partition, m.high);
  if (pending.size === 0) return 0;

  let moved = 0;
  const consumer = p.kafka.consumer({ groupId: p.kafkaGroupId, maxWaitTimeInMs: 500, allowAutoTopicCreation: false });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: p.kafkaTopic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`tenant migration of ${p.topic} did not finish within ${RUN_DEADLINE_MS} ms`)), RUN_DEADLINE_MS);
      const finish = (err?: Error) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      consumer
        .run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          eachBatch: async ({ batch, heartbeat }) => {
            const target = pending.get(batch.partition);
            if (target === undefined || batch.messages.length === 0) return;
            const slices = new Map<string, OutgoingMessage[]>();
            for (const raw of batch.messages) {
              if (Number(raw.offset) >= target) break;
              const m = toLogMessage(p.topic, batch.partition, raw);
              if (m.tenant !== undefined) continue;
              const tenant = tenantFromValue(m.value, p.field);
              if (!tenant) continue;
              const partitionKey = raw.headers?.[PARTITION_KEY_HEADER]?.toString() ?? m.key;
              const out: OutgoingMessage = { key: m.key, value: m.value, partitionKey, headers: m.headers, tenant };
              (slices.get(tenant) ?? slices.set(tenant, []).get(tenant)!).push(out);
            }
            await Promise.all([...slices.keys()].map((t) => p.tenants.ensure(p.topic, t)));
            if (slices.size > 0) await p.publisher.publish([...slices].map(([t, messages]) => ({ topic: p.sliceTopic(t), messages })));
            for (const list of slices.values()) moved += list.length;
            const last = Math.min(Number(batch.lastOffset()), target - 1);
            await consumer.commitOffsets([{ topic: p.kafkaTopic, partition: batch.partition, offset: String(last + 1) }]);
            await heartbeat();
            if (last + 1 >= target) {
              pending.delete(batch.partition);
              consumer.pause([{ topic: p.kafkaTopic, partitions: [batch.partition] }]);
              if (pending.size === 0) finish();
            }
          },
        })
        .catch(finish);
    });
  } finally {
    await consumer.disconnect().catch(() => {});
  }
  p.logger.info('copied messages into their tenant topics', { topic: p.topic, count: moved });
  return moved;
}
