/**
 * Customers, organizations and developer tokens: the gateway owns them because every request's
 * authentication and organization check needs them.
 */
import type { OrganizationSettings } from '@wellstream/contracts';

export interface Customer {
  _id: string;
  name: string;
  created_at: string;
  /** Set when the operator deleted it: its tokens are revoked and its events are gone. */
  deleted_at?: string;
}

export interface Organization {
  _id: string;
  customer_id: string;
  name: string;
  settings: OrganizationSettings;
  created_at: string;
  updated_at: string;
  /** The id of the last write, so the outbox can tell whether that very write was stored. */
  write_id?: string;
}

export interface DeveloperToken {
  /** sha256 of the token: the token itself is shown once and never stored. */
  _id: string;
  customer_id: string;
  rate_limit_per_hour: number;
  created_at: string;
  revoked_at: string | null;
  /**
   * The token's first characters (`wst_` and 8 of its 43 random ones), kept at issue time so the
   * operator can tell tokens apart; 48 of 256 random bits, not enough to guess the rest. Absent on
   * tokens issued before it was kept.
   */
  prefix?: string;
}

export const customerView = (c: Customer) => ({
  id: c._id,
  name: c.name,
  created_at: c.created_at,
  ...(c.deleted_at ? { deleted_at: c.deleted_at } : {}),
});

export const organizationView = (o: Organization) => ({
  id: o._id,
  customer_id: o.customer_id,
  name: o.name,
  settings: o.settings,
  created_at: o.created_at,
});
