/**
 * What records knows about organizations (from organizationEventsTopic): who owns each (checked on
 * every organization path) and how many days of history the record endpoints serve.
 */
import { DEFAULT_HISTORY_DAYS, OrganizationSnapshot } from '@wellstream/contracts';
import type { Collection, DocumentStore } from '@wellstream/store';

interface ProjectedOrganization {
  _id: string;
  customer_id: string;
  history_days: number;
  updated_at: string;
}

export class OrganizationProjectionRepository {
  private constructor(private readonly orgs: Collection<ProjectedOrganization>) {}

  static async open(store: DocumentStore): Promise<OrganizationProjectionRepository> {
    return new OrganizationProjectionRepository(await store.collection<ProjectedOrganization>({ name: 'organization_projection' }));
  }

  async apply(o: OrganizationSnapshot): Promise<void> {
    await this.orgs.bulkUpsert([{ _id: o.id, customer_id: o.customer_id, history_days: o.settings.history_days, updated_at: o.updated_at }]);
  }

  async customerOf(organizationId: string): Promise<string | undefined> {
    return (await this.orgs.findOne({ _id: organizationId }))?.customer_id;
  }

  async historyDays(organizationId: string): Promise<number> {
    return (await this.orgs.findOne({ _id: organizationId }))?.history_days ?? DEFAULT_HISTORY_DAYS;
  }
}
