/**
 * Test fixtures of the streams service: customer events published straight onto the `events`
 * topic (as records/users would), and SSE connections to streams and replay.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog } from '@wellstream/bus';
import type { EventType, ResourceType } from '@wellstream/catalog';
import { CustomerEvent, customerEventsTopic, publishEvents } from '@wellstream/contracts';
import { connectSse, SseConnection, Tenant, testRecord } from '@wellstream/testing';

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
  const mark = spec.mark ?? id;
  const createdAt = spec.createdAt ?? new Date().toISOString();
  const user = { uid: `uid-${spec.userId}`, user_id: spec.userId, organization_id: tenant.organizationId };
  const envelope = { id, key: id, customer_id: tenant.customerId, organization_id: tenant.organizationId, user_id: spec.userId, created_at: createdAt };
  // Each event type carries the mark in a field of its own payload (markOf reads it back).
  if (spec.eventType === 'connection') return { ...envelope, event_type: 'connection', payload: { user, source: { type: mark }, action: 'connected', created_at: createdAt } };
  if (spec.eventType === 'rule') {
    const rule = { id: 'r1', type: 'user/missing_data', window: 'P1D', message: mark, metric: { type: 'steps', sub_type: null, unit: null, origin: null }, threshold: { value: 1, comparator: 'less_than' } };
    return { ...envelope, event_type: 'rule', payload: { user, rule, data: [], created_at: createdAt } };
  }
  const resource = spec.resource ?? 'measurement';
  const startTime = spec.startTime ?? createdAt;
  const record = testRecord(resource, { id, user, start_time: startTime, created_at: createdAt, log_id: mark, user_notes: spec.padding ? ['x'.repeat(spec.padding)] : [] });
  return { ...envelope, event_type: 'data', resource, start_time: startTime, payload: record };
}

/** The mark of a delivered fixture event: the record's log_id, the connection's source, the rule's message. */
export function markOf(e: { json(): any }): string {
  const p = e.json();
  return p.log_id ?? p.source?.type ?? p.rule?.message;
}

export async function publish(log: EventLog, tenant: Tenant, specs: EventSpec[]): Promise<void> {
  await publishEvents(log, customerEventsTopic, specs.map((s) => customerEvent(tenant, s)));
}

export const connectStream = (baseUrl: string, tenant: Tenant, streamId: string, headers?: Record<string, string>, query = '') =>
  connectSse(`${baseUrl}/streams/${streamId}/connect?token=${tenant.token}${query}`, { headers });

export const connectReplay = (baseUrl: string, tenant: Tenant, query = '') => connectSse(`${baseUrl}/replay?token=${tenant.token}${query}`);

/** The `mark`s of the data/connection/rule events received so far. */
export const marksOf = (c: SseConnection) => c.events.filter((e) => e.event !== 'poke').map(markOf);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

