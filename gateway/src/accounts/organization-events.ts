/**
 * Services keep a projection of organizations (settings such as the rules flag); every change is
 * written with its full snapshot event through the outbox (libs/outbox), so a stored change is
 * always announced, even when the event log is down at the time. The answer waits (bounded) until
 * the event is on the log: each service checks organizations in its own projection and waits for
 * it only up to the log's end (libs/bus read-your-writes.ts).
 */
import { organizationEventsTopic } from '@wellstream/contracts';
import { DEFAULT_PUBLISH_WITHIN_MS, Outbox, StateCheck } from '@wellstream/outbox';
import type { Organization } from './account';
import { ORGANIZATIONS_COLLECTION } from './account.repository';

/** Writes `change` (which stores `next`) together with its event. */
export function writeOrganization<R>(outbox: Outbox, type: 'organization.created' | 'organization.updated', next: Organization, change: () => Promise<R>): Promise<R> {
  // The write id is unique to this write, so the check holds only if this very write was stored.
  const stored: StateCheck = { collection: ORGANIZATIONS_COLLECTION, filter: { _id: next._id } };
  if (next.write_id) stored.filter.write_id = next.write_id;
  const event = {
    type,
    occurred_at: next.updated_at,
    organization: { id: next._id, customer_id: next.customer_id, name: next.name, settings: next.settings, created_at: next.created_at, updated_at: next.updated_at },
  };
  return outbox.write([outbox.message(organizationEventsTopic, event, stored)], change, { publishWithinMs: DEFAULT_PUBLISH_WITHIN_MS });
}
