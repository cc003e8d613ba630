/**
 * Picks the adapters from validated settings: embedded (SQLite files under the data dir,
 * in-memory rate limits) or distributed (Kafka, MongoDB, Redis). Composition roots call these;
 * nothing else chooses an adapter.
 */
import path from 'node:path';
import type { InfraSettings } from '@wellstream/config';
import { EventLog } from '@wellstream/bus';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { DocumentStore } from '@wellstream/store';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { MemoryRateLimitStore, RateLimitStore } from '@wellstream/ratelimit';
import type { Logger } from '@wellstream/logging';
import type { SharedInfra } from './running-service';
import { createDistributedDocumentStore, createDistributedEventLog, createDistributedRateLimitStore } from './distributed-adapters';

export function createEventLog(settings: InfraSettings, logger: Logger): EventLog {
  if (settings.WELLSTREAM_MODE === 'distributed') return createDistributedEventLog(settings, logger);
  return new EmbeddedEventLog({ file: path.resolve(settings.WELLSTREAM_DATA_DIR, 'events.db'), logger });
}

/** Database per service: `<data dir>/<service>.db`, or the MongoDB database `<prefix>_<service>`. */
export function createDocumentStore(settings: InfraSettings, service: string, logger: Logger, shared: SharedInfra = {}): DocumentStore {
  const store =
    settings.WELLSTREAM_MODE === 'distributed'
      ? createDistributedDocumentStore(settings, service, logger)
      : new SqliteDocumentStore(path.resolve(settings.WELLSTREAM_DATA_DIR, `${service}.db`));
  return shared.observeStore ? shared.observeStore(service, store) : store;
}

export function createRateLimitStore(settings: InfraSettings, logger: Logger): RateLimitStore {
  if (settings.WELLSTREAM_MODE === 'distributed') return createDistributedRateLimitStore(settings, logger);
  return new MemoryRateLimitStore();
}
