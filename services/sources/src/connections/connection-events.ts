/**
 * The `source-connections` messages a connection change announces, each written through the
 * outbox with the change it announces (users turns them into the user's `sources` entry and the
 * customer's `connection` events).
 */
import { SourceConnectionAction, SourceConnectionEvent, sourceConnectionsTopic } from '@wellstream/contracts';
import type { Outbox, PendingMessage, StateCheck } from '@wellstream/outbox';
import { backfillProgress, Connection } from './connection';
import { CONNECTIONS_COLLECTION } from './connection.repository';

export type Extra = Pick<SourceConnectionEvent, 'resource' | 'range' | 'reason'>;

export function connectionEvent(c: Connection, action: SourceConnectionAction, at: string, extra: Extra = {}): SourceConnectionEvent {
  return {
    type: 'source.connection',
    action,
    user_id: c.user_id,
    organization_id: c.organization_id,
    source_type: c.source_type,
    status: c.status,
    connected_at: c.connected_at,
    last_synced_at: c.last_synced_at,
    backfill: backfillProgress(c),
    ...(c.missing_permissions?.length ? { missing_permissions: c.missing_permissions } : {}),
    ...(c.uploaded ? { uploaded: c.uploaded } : {}),
    ...extra,
    occurred_at: at,
  };
}

/** Published once the connection has this sync_seq or later (the write that announces it). */
export const atSeq = (c: Connection): StateCheck => ({ collection: CONNECTIONS_COLLECTION, filter: { _id: c._id, sync_seq: { $gte: c.sync_seq } } });

/** atSeq for a sync step's write, which does not land on a connection that expired meanwhile (commit-progress.ts). */
export const syncedAtSeq = (c: Connection): StateCheck => ({ collection: CONNECTIONS_COLLECTION, filter: { _id: c._id, sync_seq: { $gte: c.sync_seq }, status: { $ne: 'auth_expired' } } });

export function connectionMessage(outbox: Outbox, c: Connection, action: SourceConnectionAction, at: string, extra: Extra = {}, check: StateCheck = atSeq(c)): PendingMessage {
  return outbox.message(sourceConnectionsTopic, connectionEvent(c, action, at, extra), check);
}
