/**
 * What records keeps of each organization (from the `organizations` topic): who owns it, checked
 * on every organization path, and how many days of history the record endpoints serve.
 */
import { OrganizationOwnerRepository } from '@wellstream/runtime';
import type { DocumentStore } from '@wellstream/store';

export type OrganizationProjection = OrganizationOwnerRepository<{ history_days: number; updated_at: string }>;

export function openOrganizationProjection(store: DocumentStore): Promise<OrganizationProjection> {
  return OrganizationOwnerRepository.open(store, {
    name: 'organization_projection',
    fields: (o) => ({ history_days: o.settings.history_days, updated_at: o.updated_at }),
  });
}
