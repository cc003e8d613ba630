/**
 * Publishes what happened to a user: a full snapshot on the `users` topic (other services keep
 * projections from it) and, for source (dis)connections, a customer-facing `connection` event on
 * the `events` topic. Callers store first and publish after, so a snapshot never runs ahead of
 * the database.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog } from '@wellstream/bus';
import {
  ConnectionPayload,
  CustomerEvent,
  customerEventsTopic,
  publishEvents,
  UserEventType,
  userEventsTopic,
} from '@wellstream/contracts';
import { toSnapshot, User } from './user';

export class UserEventsPublisher {
  constructor(private readonly log: EventLog) {}

  async userChanged(type: UserEventType, user: User, sourceType?: string): Promise<void> {
    await publishEvents(this.log, userEventsTopic, [
      { type, occurred_at: user.updated_at, user: toSnapshot(user), ...(sourceType ? { source_type: sourceType } : {}) },
    ]);
  }

  /** The `users` snapshot first (records learns the source), then the customer's `connection` event. */
  async sourceChanged(user: User, sourceType: string, action: 'connected' | 'disconnected', at: string): Promise<void> {
    await this.userChanged(action === 'connected' ? 'source.connected' : 'source.disconnected', user, sourceType);
    const id = randomUUID();
    const payload: ConnectionPayload = {
      user: { uid: user.uid, user_id: user.id, organization_id: user.organization_id },
      source: { type: sourceType },
      action,
      created_at: at,
    };
    const event: CustomerEvent = {
      id,
      event_type: 'connection',
      key: id,
      customer_id: user.customer_id,
      organization_id: user.organization_id,
      user_id: user.id,
      created_at: at,
      payload: payload as unknown as Record<string, unknown>,
    };
    await publishEvents(this.log, customerEventsTopic, [event]);
  }
}
