/**
 * What happened to a user, written with the change itself through the outbox (libs/outbox): a full
 * snapshot on the `users` topic (other services keep projections from it) and, for source
 * (dis)connections and what the customer must know about a provider connection (its access
 * expired or came back, its history arrived), a customer-facing `connection` event on the
 * `events` topic. The answer to the caller means the change and its events are stored, and (unless
 * the log did not take them within DEFAULT_PUBLISH_WITHIN_MS) on the log: records and rules find a
 * user created a moment ago by waiting for their projection to reach the log's end (libs/bus
 * read-your-writes.ts), never by a guessed delay. A publish that fails is retried by the relay.
 */
import { randomUUID } from 'node:crypto';
import { ConnectionPayload, CustomerEvent, customerEventsTopic, UserEventType, userEventsTopic } from '@wellstream/contracts';
import { DEFAULT_PUBLISH_WITHIN_MS, Outbox, PendingMessage } from '@wellstream/outbox';
import { toSnapshot } from './user';
import type { User } from './user';
import type { UserChange } from './user.repository';

export type ConnectionAction = ConnectionPayload['action'];

/** What a `connection` event may add: why (disconnected, auth_expired), which history arrived (backfill_completed). */
export type ConnectionDetails = Pick<ConnectionPayload, 'resource' | 'range' | 'reason'>;

/** The `users` snapshot type that goes with a connection action. */
const snapshotTypeOf = (action: ConnectionAction): UserEventType =>
  action === 'connected' || action === 'reconnected' ? 'source.connected' : action === 'disconnected' ? 'source.disconnected' : 'source.updated';

export class UserEvents {
  constructor(
    private readonly outbox: Outbox,
    private readonly publishWithinMs = DEFAULT_PUBLISH_WITHIN_MS,
  ) {}

  /** Stores the change and its snapshot event together. */
  userChanged(type: UserEventType, change: UserChange, sourceType?: string): Promise<User> {
    return this.outbox.write([this.snapshot(type, change, sourceType)], change.apply, { publishWithinMs: this.publishWithinMs });
  }

  /** The `users` snapshot first (records learns the source), then the customer's `connection` event. */
  sourceChanged(change: UserChange, sourceType: string, action: ConnectionAction, at: string, details: ConnectionDetails = {}): Promise<User> {
    const user = change.next;
    const id = randomUUID();
    const payload: ConnectionPayload = {
      user: { uid: user.uid, user_id: user.id, organization_id: user.organization_id },
      source: { type: sourceType },
      action,
      ...(details.resource !== undefined ? { resource: details.resource } : {}),
      ...(details.range !== undefined ? { range: { start: details.range.start, end: details.range.end } } : {}),
      ...(details.reason !== undefined ? { reason: details.reason } : {}),
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
      payload,
    };
    const snapshot = this.snapshot(snapshotTypeOf(action), change, sourceType);
    return this.outbox.write([snapshot, this.outbox.message(customerEventsTopic, event, change.stored)], change.apply, { publishWithinMs: this.publishWithinMs });
  }

  private snapshot(type: UserEventType, change: UserChange, sourceType?: string): PendingMessage {
    const user = change.next;
    return this.outbox.message(
      userEventsTopic,
      { type, occurred_at: user.updated_at, user: toSnapshot(user), ...(sourceType ? { source_type: sourceType } : {}) },
      change.stored,
    );
  }
}
