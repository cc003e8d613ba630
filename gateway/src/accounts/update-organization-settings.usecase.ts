import type { EventLog } from '@wellstream/bus';
import type { OrganizationSettings } from '@wellstream/contracts';
import { notFound } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { organizationView } from './account';
import { publishOrganization } from './organization-published';

export async function updateOrganizationSettings(
  deps: { repo: AccountRepository; eventLog: EventLog },
  input: { organizationId: string; settings: Partial<OrganizationSettings> },
  now = new Date(),
) {
  const $set: Record<string, unknown> = { updated_at: now.toISOString() };
  for (const [k, v] of Object.entries(input.settings)) if (v !== undefined) $set[`settings.${k}`] = v;
  const org = await deps.repo.organizations.findOneAndUpdate({ _id: input.organizationId }, { $set });
  if (!org) throw notFound('ORGANIZATION_NOT_FOUND', `No organization found for id ${input.organizationId}.`);
  await publishOrganization(deps.eventLog, 'organization.updated', org);
  return organizationView(org);
}
