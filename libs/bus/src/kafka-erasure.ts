/**
 * Erasure on Kafka (docs/data-lifecycle.md): a tombstone (same key, null value, same partition) for every key of
 * the user, so the log cleaner removes the key's messages at the topic's next compaction; consumers
 * see an empty value and skip it. Keys come from the caller, or from reading the one partition the
 * user's partition key picks (from its oldest kept message to the high watermark taken at the
 * start, through a throwaway group: kafkajs reads only through groups) in a topic whose size
 * follows one customer's data (its tenant topic), never the platform's.
 */
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { KafkaAdmin } from './kafka-admin';
import { partitionFor } from './partitioner';
import { TimeSlice } from './time-slice';

/** No message for this long after the last one (or the start) means the partition has nothing more before the mark. */
const QUIET_END_MS = 5_000;

export interface KafkaErasureParams {
  kafka: Kafka;
  admin: KafkaAdmin;
  kafkaTopic: string;
  groupPrefix: string;
  partitionKey: string;
  matches(value: string): boolean;
}

/** The keys of the matching messages in the partition `partitionKey` picks. */
export async function findMatchingKeys(p: KafkaErasureParams): Promise<string[]> {
  const marks = await p.admin.watermarks(p.kafkaTopic);
  const partition = partitionFor(p.partitionKey, marks.length);
  const mark = marks.find((m) => m.partition === partition);
  if (!mark || mark.low >= mark.high) return [];
  return matchingKeys(p, partition, mark.low, mark.high);
}

/** Tombstones `keys` in the partition `partitionKey` picks. */
export async function tombstoneKeys(kafka: Kafka, admin: KafkaAdmin, kafkaTopic: string, partitionKey: string, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const partition = partitionFor(partitionKey, (await admin.watermarks(kafkaTopic)).length);
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    for (let i = 0; i < keys.length; i += 500) {
      await producer.send({ topic: kafkaTopic, acks: -1, messages: keys.slice(i, i + 500).map((key) => ({ key, value: null, partition })) });
    }
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
  return keys.length;
}

async function matchingKeys(p: KafkaErasureParams, partition: number, low: number, high: number): Promise<string[]> {
  const groupId = `${p.groupPrefix}erasure.${randomUUID()}`;
  const marks = await p.admin.watermarks(p.kafkaTopic);
  // Every other partition starts at its end: only the user's partition is read.
  await p.admin.setOffsets(groupId, p.kafkaTopic, marks.map((m) => ({ partition: m.partition, offset: m.partition === partition ? low : m.high })));
  const consumer = p.kafka.consumer({ groupId, maxWaitTimeInMs: 100, sessionTimeout: 6_000, heartbeatInterval: 1_000, rebalanceTimeout: 6_000, maxBytesPerPartition: 256 * 1024, allowAutoTopicCreation: false });
  const keys = new Set<string>();
  const slice = new TimeSlice({ givesWay: true });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: p.kafkaTopic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      // Compaction may have removed the partition's last offsets: a read that goes quiet is at the end.
      let lastAt = Date.now();
      const quiet = setInterval(() => Date.now() - lastAt > QUIET_END_MS && resolve(), 250);
      const done = () => (clearInterval(quiet), resolve());
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition: at, message }) => {
            lastAt = Date.now();
            await slice.pause();
            const offset = Number(message.offset);
            if (at !== partition || offset >= high) return;
            if (message.key && message.value && p.matches(message.value.toString())) keys.add(message.key.toString());
            if (offset + 1 >= high) done();
          },
        })
        .catch((err: unknown) => (clearInterval(quiet), reject(err)));
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await p.admin.deleteGroup(groupId).catch(() => undefined);
  }
  return [...keys];
}
