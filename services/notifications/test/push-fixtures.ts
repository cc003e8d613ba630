/**
 * Fixtures for push tests: data events published straight onto the `events` topic (as the records
 * service would), and small polling helpers over the status endpoints.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog } from '@wellstream/bus';
import { CustomerEvent, customerEventsTopic, publishEvents } from '@wellstream/contracts';
import { ApiClient, eventually, Tenant, testRecord } from '@wellstream/testing';

let counter = 0;

export interface DataEventOptions {
  organizationId?: string;
  userId?: string;
  resource?: 'measurement' | 'sleep' | 'nutrition' | 'summary';
  eventType?: 'data' | 'connection';
}

export function dataEvent(tenant: Tenant, options: DataEventOptions = {}): CustomerEvent {
  counter += 1;
  const now = new Date().toISOString();
  const resource = options.resource ?? 'measurement';
  const userId = options.userId ?? 'user-1';
  const organizationId = options.organizationId ?? tenant.organizationId;
  const recordId = `rec-${String(counter).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
  const user = { uid: `uid-${userId}`, user_id: userId, organization_id: organizationId };
  const envelope = { id: `evt-${String(counter).padStart(6, '0')}-${randomUUID()}`, customer_id: tenant.customerId, organization_id: organizationId, user_id: userId, created_at: now };
  if (options.eventType === 'connection') {
    return { ...envelope, event_type: 'connection', key: envelope.id, payload: { user, source: { type: 'withings' }, action: 'connected', created_at: now } };
  }
  const record = testRecord(resource, {
    id: recordId,
    checksum: randomUUID().replace(/-/g, ''),
    log_id: `log-${counter}`,
    start_time: '2024-05-01T07:00:00Z',
    user,
    metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + counter / 100, origin: 'device' }],
    created_at: now,
  });
  return { ...envelope, event_type: 'data', key: recordId, resource, start_time: record.start_time, payload: record };
}

export async function publishData(log: EventLog, events: CustomerEvent[]): Promise<CustomerEvent[]> {
  await publishEvents(log, customerEventsTopic, events);
  return events;
}

export const orgPath = (organizationId: string) => `/organizations/${organizationId}`;

/**
 * Waits until the organization's list satisfies `pred`; returns the list's data. The deadline is
 * generous (it costs nothing when the condition comes fast): on the slow store of a loaded CI
 * machine collecting, forming and trying a batch can take seconds.
 */
export async function waitForBatches(
  api: ApiClient,
  organizationId: string,
  pred: (batches: any[]) => boolean,
  timeoutMs = 30_000,
): Promise<any[]> {
  return eventually(async () => {
    const res = await api.get(`${orgPath(organizationId)}/notifications?limit=100`);
    return res.status === 200 && pred(res.body.data) ? res.body.data : undefined;
  }, timeoutMs);
}

export async function batchDetail(api: ApiClient, organizationId: string, id: string): Promise<any> {
  const res = await api.get(`${orgPath(organizationId)}/notifications/${id}`);
  if (res.status !== 200) throw new Error(`detail ${res.status} ${res.text}`);
  return res.body;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
