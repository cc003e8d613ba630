/**
 * The real-server adapters (Kafka, MongoDB, Redis), built from settings.
 */
import type { InfraSettings } from '@wellstream/config';
import type { EventLog } from '@wellstream/bus';
import type { DocumentStore } from '@wellstream/store';
import type { RateLimitStore } from '@wellstream/ratelimit';
import type { Logger } from '@wellstream/logging';

export function createDistributedEventLog(_settings: InfraSettings, _logger: Logger): EventLog {
  throw new Error('the Kafka event log adapter is not wired yet (issue 3)');
}

export function createDistributedDocumentStore(_settings: InfraSettings, _service: string, _logger: Logger): DocumentStore {
  throw new Error('the MongoDB document store adapter is not wired yet (issue 3)');
}

export function createDistributedRateLimitStore(_settings: InfraSettings, _logger: Logger): RateLimitStore {
  throw new Error('the Redis rate-limit adapter is not wired yet (issue 3)');
}
