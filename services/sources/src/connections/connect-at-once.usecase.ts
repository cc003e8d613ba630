/**
 * Connecting and disconnecting the sources that need no sign-in: the demo source and the phone
 * apps (Apple Health, Health Connect, Samsung Health), from the marketplace or when records first
 * sees their data. Kept as connections like the providers' (no tokens, no history to fetch) and
 * announced on `source-connections` like theirs, so every copy of a user's sources (the users
 * service's `user.sources` and the customer's `connection` events, records' availability) follows
 * one owner. Repeating a connect or a disconnect changes nothing and announces nothing new, so
 * detections and double clicks are harmless.
 */
import type { Clock } from '@wellstream/clock';
import type { Outbox } from '@wellstream/outbox';
import { DuplicateKeyError } from '@wellstream/store';
import { sourceDefinition } from '@wellstream/catalog';
import type { ProjectedUser } from '../users/user-projection';
import { randomUUID } from 'node:crypto';
import { CONNECTIONS_COLLECTION, ConnectionRepository } from './connection.repository';
import { DISCONNECTIONS_COLLECTION, DisconnectionLog } from './disconnection-log';
import { Connection, connectionId } from './connection';
import { connectionMessage } from './connection-events';
import { marketplaceNotFound, unknownSource } from './source.errors';

export interface ConnectAtOnceDeps {
  connections: ConnectionRepository;
  disconnections: DisconnectionLog;
  outbox: Outbox;
  clock: Clock;
  /**
   * Resolves once the services that copy `source-connections` have applied what was just
   * published, so that no read after the answer (the user, its marketplace page, availability)
   * shows the old state. Detections pass nothing: no one is waiting for an answer.
   */
  copiesApplied?: () => Promise<void>;
  /** Told after every change (the demo source starts or stops the user's data). */
  changed?: (userId: string, type: string) => void;
}

/** Published before the write resolves: the copies' catch-up below looks for it on the log. */
const PUBLISH_WITHIN_MS = 2_000;

/** The demo source and the phone apps connect here at once; cloud sources through their provider. */
export const connectsAtOnce = (type: string): boolean => {
  const kind = sourceDefinition(type)?.kind;
  return kind === 'demo' || kind === 'mobile';
};

/** What a phone source's first upload brings to its new connection (connected when that record arrived). */
export type FirstUpload = Pick<Connection, 'connected_at' | 'last_synced_at' | 'uploaded'>;

export function atOnceConnection(user: Pick<ProjectedUser, '_id' | 'organization_id'>, type: string, now: string, first: Partial<FirstUpload> = {}): Connection {
  return {
    _id: connectionId(user._id, type),
    user_id: user._id,
    organization_id: user.organization_id,
    source_type: type,
    status: 'active',
    provider_user_id: null,
    // Nothing to seal: no provider account stands behind it.
    tokens: '',
    token_expires_at: '',
    token_rev: 0,
    refresh_lock_until: '',
    connected_at: now,
    last_synced_at: null,
    last_error: null,
    failures: 0,
    resources: {},
    sync_seq: 0,
    last_announced_at: null,
    updated_at: now,
    created_by: randomUUID(),
    ...first,
  };
}

/** True when this call connected it (false: it was connected already). */
export async function connectAtOnce(deps: ConnectAtOnceDeps, user: ProjectedUser | null, type: string, first: Partial<FirstUpload> = {}): Promise<boolean> {
  if (!connectsAtOnce(type)) throw unknownSource(type);
  if (!user || user.status !== 'active') throw marketplaceNotFound();
  if (await deps.connections.byId(connectionId(user._id, type))) return false;
  const now = deps.clock.now().toISOString();
  const c = atOnceConnection(user, type, now, first);
  try {
    const check = { collection: CONNECTIONS_COLLECTION, filter: { _id: c._id, created_by: c.created_by } };
    await deps.outbox.write([connectionMessage(deps.outbox, c, 'connected', now, {}, check)], () => deps.connections.insert(c), { publishWithinMs: deps.copiesApplied ? PUBLISH_WITHIN_MS : 0 });
  } catch (err) {
    // A concurrent connect (a double click, a detection) stored it first, and announces it.
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
  deps.changed?.(user._id, type);
  await deps.copiesApplied?.();
  return true;
}

/**
 * Announced even when this service holds no such connection: an entry of the users service's copy
 * made before this service kept these connections goes too (for a copy without it, a no-op).
 */
export async function disconnectAtOnce(deps: ConnectAtOnceDeps, user: ProjectedUser | null, type: string): Promise<void> {
  if (!user || user.status !== 'active') throw marketplaceNotFound();
  const current = await deps.connections.byId(connectionId(user._id, type));
  if (!current && !connectsAtOnce(type)) throw unknownSource(type);
  const now = deps.clock.now().toISOString();
  const c = current ?? atOnceConnection(user, type, now);
  const logId = randomUUID();
  // No reason on the event: the user's own disconnect of these sources never carried one.
  await deps.outbox.write(
    [connectionMessage(deps.outbox, c, 'disconnected', now, {}, { collection: DISCONNECTIONS_COLLECTION, filter: { _id: logId, user_id: c.user_id } })],
    async () => {
      await deps.disconnections.add({ _id: logId, connection_id: c._id, user_id: c.user_id, source_type: type, reason: 'disconnected by the user', revoked_at_provider: false, at: now });
      await deps.connections.remove(c);
    },
    { publishWithinMs: PUBLISH_WITHIN_MS },
  );
  deps.changed?.(user._id, type);
  await deps.copiesApplied?.();
}
