/**
 * Services keep a projection of organizations (settings such as the rules flag); every change is
 * published as a full snapshot.
 */
import type { EventLog } from '@wellstream/bus';
import { organizationEventsTopic, publishEvents } from '@wellstream/contracts';
import type { Organization } from './account';

export function publishOrganization(log: EventLog, type: 'organization.created' | 'organization.updated', o: Organization) {
  return publishEvents(log, organizationEventsTopic, [
    {
      type,
      occurred_at: o.updated_at,
      organization: { id: o._id, customer_id: o.customer_id, name: o.name, settings: o.settings, created_at: o.created_at, updated_at: o.updated_at },
    },
  ]);
}
