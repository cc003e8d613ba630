import type { EventLog } from '@wellstream/bus';
import { DEFAULT_HISTORY_DAYS } from '@wellstream/contracts';
import { notFound } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { Organization, organizationView } from './account';
import { newId } from './token-secret';
import { publishOrganization } from './organization-published';

export async function createOrganization(
  deps: { repo: AccountRepository; eventLog: EventLog },
  input: { customerId: string; name: string },
  now = new Date(),
) {
  if (!(await deps.repo.findCustomer(input.customerId))) throw notFound('CUSTOMER_NOT_FOUND', `No customer found for id ${input.customerId}.`);
  const at = now.toISOString();
  const org: Organization = {
    _id: newId('org'),
    customer_id: input.customerId,
    name: input.name,
    settings: { rules_enabled: null, history_days: DEFAULT_HISTORY_DAYS },
    created_at: at,
    updated_at: at,
  };
  await deps.repo.organizations.insertOne(org);
  // Published after the insert: a crash in between leaves an organization services learn about on
  // its next update; the gateway itself (which authorizes by it) already has it.
  await publishOrganization(deps.eventLog, 'organization.created', org);
  return organizationView(org);
}
