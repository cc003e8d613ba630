/**
 * The user aggregate as the users service stores it, and its invariants: a user belongs to one
 * organization (and so one customer), carries two secret tokens (marketplace, mobile), and moves
 * between `active`, `suspended` and `deleted` (deleted is final; the data is kept).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ConnectedSourceSnapshot, UserSnapshot } from '@wellstream/contracts';

export type ConnectedSource = ConnectedSourceSnapshot;

/** The published snapshot plus what never leaves the service (the marketplace token, the version). */
export interface User extends UserSnapshot {
  _id: string;
  marketplace_token: string;
  /**
   * Per source type, the `occurred_at` of the last `source-connections` event applied (kept after a
   * disconnection): that topic is delivered at least once, and an event not newer than this changes
   * nothing. Absent until the first such event.
   */
  source_events_at?: Record<string, string>;
  /** Optimistic concurrency: every write checks and bumps it (the store has no transactions). */
  version: number;
  /** The id of the last write, so the outbox can tell whether that very write was stored. */
  write_id?: string;
}

export interface Location {
  timezone: string | null;
  country_code: string | null;
}

/** 32 random bytes: unguessable, URL-safe, and unique in practice (a unique index guards it too). */
export const newMarketplaceToken = () => `mkt_${randomBytes(32).toString('base64url')}`;
export const newMobileToken = () => `mob_${randomBytes(32).toString('base64url')}`;
export const newUserId = () => randomUUID();

export function newUser(input: { uid: string; organizationId: string; customerId: string; location: Location; now: string }): User {
  const id = newUserId();
  return {
    _id: id,
    id,
    uid: input.uid,
    organization_id: input.organizationId,
    customer_id: input.customerId,
    status: 'active',
    timezone: input.location.timezone,
    timezone_origin: 'profile',
    country_code: input.location.country_code,
    mobile_token: newMobileToken(),
    marketplace_token: newMarketplaceToken(),
    sources: [],
    version: 1,
    created_at: input.now,
    updated_at: input.now,
    deleted_at: null,
  };
}

/** What the `users` topic carries: everything other services may project, never the marketplace token (only its sha256). */
export function toSnapshot(u: User): UserSnapshot {
  return {
    id: u.id,
    uid: u.uid,
    organization_id: u.organization_id,
    customer_id: u.customer_id,
    status: u.status,
    timezone: u.timezone,
    timezone_origin: u.timezone_origin,
    country_code: u.country_code,
    mobile_token: u.mobile_token,
    marketplace_token_sha256: createHash('sha256').update(u.marketplace_token).digest('hex'),
    sources: u.sources.map(sourceSnapshot),
    created_at: u.created_at,
    updated_at: u.updated_at,
    deleted_at: u.deleted_at,
  };
}

/** Only the published fields of an entry (a stored document may carry more in a later release). */
function sourceSnapshot(s: ConnectedSource): ConnectedSourceSnapshot {
  return {
    type: s.type,
    connected_at: s.connected_at,
    ...(s.status !== undefined ? { status: s.status } : {}),
    ...(s.last_synced_at !== undefined ? { last_synced_at: s.last_synced_at } : {}),
    ...(s.backfill !== undefined ? { backfill: s.backfill && { ...s.backfill } } : {}),
    ...(s.missing_permissions?.length ? { missing_permissions: [...s.missing_permissions] } : {}),
    ...(s.uploaded ? { uploaded: { resources: [...s.uploaded.resources], last_record_at: s.uploaded.last_record_at } } : {}),
  };
}
