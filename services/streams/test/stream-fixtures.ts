/**
 * Test fixtures of the streams service: customer events published straight onto the `events`
 * topic (as records/users would), and SSE connections to streams and replay.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog } from '@wellstream/bus';
import type { EventType, ResourceType } from '@wellstream/catalog';
import { CustomerEvent, customerEventsTopic, publishEvents } from '@wellstream/contracts';
import { connectSse, SseConnection, Tenant } from '@wellstream/testing';

export interface EventSpec {
  userId: string;
  eventType?: EventType;
  resource?: ResourceType;
  startTime?: string;
  createdAt?: string;
  /** Something the test can recognize the event by. */
  mark?: string;
  /** Extra payload bytes (slow-client tests). */
  padding?: number;
}

export function customerEvent(tenant: Tenant, spec: EventSpec): CustomerEvent {
  const id = randomUUID();
  const eventType = spec.eventType ?? 'data';
  const createdAt = spec.createdAt ?? new Date().toISOString();
  const user = { uid: `uid-${spec.userId}`, user_id: spec.userId, organization_id: tenant.organizationId };
  const payload: Record<string, unknown> =
    eventType === 'data'
      ? { id, type: spec.resource ?? 'measurement', user, start_time: spec.startTime ?? createdAt, created_at: createdAt, mark: spec.mark }
      : eventType === 'connection'
        ? { user, source: { type: 'demo' }, action: 'connected', created_at: createdAt, mark: spec.mark }
        : { user, rule: { id: 'r1' }, data: [], created_at: createdAt, mark: spec.mark };
  if (spec.padding) payload.padding = 'x'.repeat(spec.padding);
  return {
    id,
    event_type: eventType,
    key: id,
    customer_id: tenant.customerId,
    organization_id: tenant.organizationId,
    user_id: spec.userId,
    ...(eventType === 'data' ? { resource: spec.resource ?? 'measurement', start_time: spec.startTime ?? createdAt } : {}),
    created_at: createdAt,
    payload,
  };
}

export async function publish(log: EventLog, tenant: Tenant, specs: EventSpec[]): Promise<void> {
  await publishEvents(log, customerEventsTopic, specs.map((s) => customerEvent(tenant, s)));
}

export const connectStream = (baseUrl: string, tenant: Tenant, streamId: string, headers?: Record<string, string>, query = '') =>
  connectSse(`${baseUrl}/streams/${streamId}/connect?token=${tenant.token}${query}`, { headers });

export const connectReplay = (baseUrl: string, tenant: Tenant, query = '') => connectSse(`${baseUrl}/replay?token=${tenant.token}${query}`);

/** The `mark`s of the data/connection/rule events received so far. */
export const marksOf = (c: SseConnection) => c.events.filter((e) => e.event !== 'poke').map((e) => e.json().mark as string);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

