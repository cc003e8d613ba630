import { DEFAULT_HISTORY_DAYS } from '@wellstream/contracts';
import { notFound } from '@wellstream/errors';
import type { Outbox } from '@wellstream/outbox';
import type { AccountRepository } from './account.repository';
import { Organization, organizationView } from './account';
import { newId } from './token-secret';
import { writeOrganization } from './organization-events';
import type { Clock } from '@wellstream/clock';

export async function createOrganization(
  deps: { repo: AccountRepository; outbox: Outbox },
  input: { customerId: string; name: string },
  clock: Clock,
) {
  if (!(await deps.repo.findCustomer(input.customerId))) throw notFound('CUSTOMER_NOT_FOUND', `No customer found for id ${input.customerId}.`);
  const at = clock.now().toISOString();
  const org: Organization = {
    _id: newId('org'),
    customer_id: input.customerId,
    name: input.name,
    settings: { rules_enabled: null, history_days: DEFAULT_HISTORY_DAYS },
    created_at: at,
    updated_at: at,
  };
  await writeOrganization(deps.outbox, 'organization.created', org, () => deps.repo.organizations.insertOne(org));
  return organizationView(org);
}
