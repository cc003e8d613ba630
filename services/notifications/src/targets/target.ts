/**
 * A notification target: where an organization's batches are POSTed. One per organization.
 * The secret signs deliveries; it is write-only (never part of a view).
 */
import type { ResourceType } from '@wellstream/catalog';

export interface NotificationTarget {
  /** The organization id: one target per organization. */
  _id: string;
  organization_id: string;
  customer_id: string;
  url: string;
  secret: string | null;
  /** Empty = every record type. */
  resource_filter: ResourceType[];
  /** Records processed before this time are not pushed ("new records" only). */
  created_at: string;
  updated_at: string;
}

export interface TargetView {
  url: string;
  has_secret: boolean;
  resource_filter: ResourceType[];
  created_at: string;
  updated_at: string;
}

export function toTargetView(t: NotificationTarget): TargetView {
  return { url: t.url, has_secret: !!t.secret, resource_filter: t.resource_filter, created_at: t.created_at, updated_at: t.updated_at };
}

/** Whether a data event for `resource` processed at `createdAt` goes to this target. */
export function targetWants(t: NotificationTarget, resource: string | undefined, createdAt: string): boolean {
  if (Date.parse(createdAt) < Date.parse(t.created_at)) return false;
  if (t.resource_filter.length === 0) return true;
  return resource !== undefined && (t.resource_filter as string[]).includes(resource);
}
