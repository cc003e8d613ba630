/**
 * The user aggregate as the users service stores it, and its invariants: a user belongs to one
 * organization (and so one customer), carries two secret tokens (marketplace, mobile), and moves
 * between `active`, `suspended` and `deleted` (deleted is final; the data is kept).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { UserSnapshot, UserStatus } from '@wellstream/contracts';

export interface ConnectedSource {
  type: string;
  connected_at: string;
}

export interface User {
  _id: string;
  id: string;
  uid: string;
  organization_id: string;
  customer_id: string;
  status: UserStatus;
  timezone: string | null;
  timezone_origin: 'profile' | 'user_defined';
  country_code: string | null;
  mobile_token: string;
  marketplace_token: string;
  sources: ConnectedSource[];
  /** Optimistic concurrency: every write checks and bumps it (the store has no transactions). */
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
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

export const isActive = (u: User) => u.status === 'active';

/** What the `users` topic carries: everything other services may project, never the marketplace token. */
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
    sources: u.sources.map((s) => ({ type: s.type, connected_at: s.connected_at })),
    created_at: u.created_at,
    updated_at: u.updated_at,
    deleted_at: u.deleted_at,
  };
}
