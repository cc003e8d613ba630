/**
 * The real-server adapters (Kafka, MongoDB, Redis), built from settings. Prefixes keep
 * environments (and test runs) that share servers apart: topics and consumer groups get
 * WELLSTREAM_TOPIC_PREFIX, databases are `<WELLSTREAM_DB_PREFIX>_<service>`, and rate-limit keys
 * start with `<WELLSTREAM_DB_PREFIX>:rl:`.
 */
import type { InfraSettings } from '@wellstream/config';
import { EventLog } from '@wellstream/bus';
import { KafkaEventLog } from '@wellstream/bus/adapters';
import { DocumentStore } from '@wellstream/store';
import { MongoDocumentStore } from '@wellstream/store/adapters';
import { RateLimitStore, RedisRateLimitStore } from '@wellstream/ratelimit';
import type { Logger } from '@wellstream/logging';

function required(settings: InfraSettings, name: 'WELLSTREAM_KAFKA_BROKERS' | 'WELLSTREAM_MONGO_URL' | 'WELLSTREAM_REDIS_URL'): string {
  const value = settings[name];
  // The config schema already requires these in distributed mode; this guards direct callers.
  if (!value) throw new Error(`${name} is required when WELLSTREAM_MODE=distributed`);
  return value;
}

export function createDistributedEventLog(settings: InfraSettings, logger: Logger): EventLog {
  return new KafkaEventLog({
    brokers: required(settings, 'WELLSTREAM_KAFKA_BROKERS').split(',').map((b) => b.trim()),
    clientId: settings.WELLSTREAM_KAFKA_CLIENT_ID,
    prefix: settings.WELLSTREAM_TOPIC_PREFIX,
    logger,
  });
}

export function createDistributedDocumentStore(settings: InfraSettings, service: string, logger: Logger): DocumentStore {
  return new MongoDocumentStore({
    url: required(settings, 'WELLSTREAM_MONGO_URL'),
    dbName: `${settings.WELLSTREAM_DB_PREFIX}_${service}`,
    logger,
  });
}

export function createDistributedRateLimitStore(settings: InfraSettings, logger: Logger): RateLimitStore {
  return new RedisRateLimitStore({
    url: required(settings, 'WELLSTREAM_REDIS_URL'),
    keyPrefix: `${settings.WELLSTREAM_DB_PREFIX}:rl:`,
    logger,
  });
}
