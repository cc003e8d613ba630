/**
 * Which customer owns each organization, projected from the `organizations` topic (the gateway
 * publishes every organization it creates), so this service can check for itself that the
 * organization in a path belongs to the caller.
 */
import type { OrganizationSnapshot } from '@wellstream/contracts';
import type { Collection, DocumentStore } from '@wellstream/store';

interface OrganizationOwner {
  _id: string;
  customer_id: string;
}

export class OrganizationOwnerRepository {
  private constructor(private readonly owners: Collection<OrganizationOwner>) {}

  static async open(store: DocumentStore): Promise<OrganizationOwnerRepository> {
    return new OrganizationOwnerRepository(await store.collection<OrganizationOwner>({ name: 'organization_owners' }));
  }

  /** An organization never changes customer, so the latest snapshot simply wins. */
  async apply(o: OrganizationSnapshot): Promise<void> {
    await this.owners.bulkUpsert([{ _id: o.id, customer_id: o.customer_id }]);
  }

  async customerOf(organizationId: string): Promise<string | undefined> {
    return (await this.owners.findOne({ _id: organizationId }))?.customer_id;
  }
}
