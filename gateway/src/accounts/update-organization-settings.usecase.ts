/**
 * Changes an organization's settings as a read-modify-write, conditional on the version read
 * (its `write_id`), so the snapshot event written with it is exactly what was stored.
 */
import { randomUUID } from 'node:crypto';
import type { OrganizationSettings } from '@wellstream/contracts';
import { conflict, notFound } from '@wellstream/errors';
import type { Outbox } from '@wellstream/outbox';
import type { AccountRepository } from './account.repository';
import { Organization, organizationView } from './account';
import { writeOrganization } from './organization-events';
import type { Clock } from '@wellstream/clock';

const ATTEMPTS = 5;

/** Another writer got in between: the outbox drops this write's event, and we read again. */
class LostRace extends Error {}

export async function updateOrganizationSettings(
  deps: { repo: AccountRepository; outbox: Outbox },
  input: { organizationId: string; settings: Partial<OrganizationSettings> },
  clock: Clock,
) {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const current = await deps.repo.findOrganization(input.organizationId);
    if (!current) throw notFound('ORGANIZATION_NOT_FOUND', `No organization found for id ${input.organizationId}.`);
    const settings = { ...current.settings };
    for (const [k, v] of Object.entries(input.settings)) if (v !== undefined) (settings as Record<string, unknown>)[k] = v;
    const next: Organization = { ...current, settings, updated_at: clock.now().toISOString(), write_id: randomUUID() };
    try {
      const stored = await writeOrganization(deps.outbox, 'organization.updated', next, async () => {
        const updated = await deps.repo.organizations.findOneAndUpdate(
          { _id: current._id, write_id: current.write_id ?? { $exists: false } },
          { $set: { settings, updated_at: next.updated_at, write_id: next.write_id } },
        );
        if (!updated) throw new LostRace();
        return updated;
      });
      return organizationView(stored);
    } catch (err) {
      if (!(err instanceof LostRace)) throw err;
    }
  }
  throw conflict('ORGANIZATION_BUSY', 'The organization is being changed by another request; retry.');
}
