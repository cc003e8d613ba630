/**
 * Translation between kafkajs messages and the port's LogMessage, the partitioner that makes
 * Kafka place a message where the embedded log would (partitionFor over the partition key), and
 * the request context a handler runs in.
 */
import type { IHeaders, ICustomPartitioner, KafkaMessage } from 'kafkajs';
import type { LogMessage, OutgoingMessage } from './event-log.port';
import { REQUEST_ID_HEADER } from './event-log.port';
import { partitionFor } from './partitioner';

/** Carries the partition key from publish() to the partitioner; stripped again on the way in. */
export const PARTITION_KEY_HEADER = 'x-wellstream-partition-key';
/** Marks a message published with a tenant (so the tenant migration knows it is already in its slice). */
export const TENANT_HEADER = 'x-wellstream-tenant';

export const partitionKeyPartitioner: ICustomPartitioner = () => ({ partitionMetadata, message }) => {
  const header = message.headers?.[PARTITION_KEY_HEADER];
  const key = header !== undefined ? String(header) : String(message.key ?? '');
  return partitionFor(key, partitionMetadata.length);
};

export function toKafkaMessage(m: OutgoingMessage, requestId: string | undefined) {
  const headers: Record<string, string> = {
    ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
    ...m.headers,
    [PARTITION_KEY_HEADER]: m.partitionKey ?? m.key,
    ...(m.tenant !== undefined ? { [TENANT_HEADER]: m.tenant } : {}),
  };
  return { key: m.key, value: m.value, headers };
}

function headersOf(raw: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (k === PARTITION_KEY_HEADER || k === TENANT_HEADER || v === undefined) continue;
    out[k] = Array.isArray(v) ? String(v[v.length - 1]) : String(v);
  }
  return out;
}

export function toLogMessage(topic: string, partition: number, m: KafkaMessage): LogMessage {
  const tenant = m.headers?.[TENANT_HEADER];
  return {
    ...(tenant !== undefined ? { tenant: String(tenant) } : {}),
    topic,
    partition,
    offset: Number(m.offset),
    key: m.key ? m.key.toString() : '',
    value: m.value ? m.value.toString() : '',
    headers: headersOf(m.headers),
    timestamp: Number(m.timestamp),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
