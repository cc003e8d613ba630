/**
 * Which customer owns each organization, projected from the `organizations` topic (the gateway
 * publishes every organization it creates), so this service can check for itself that the
 * organization in a path belongs to the caller. A service that needs more of the organization
 * (records: how many days of history it serves) keeps those fields in the same document.
 */
import type { OrganizationSnapshot } from '@wellstream/contracts';
import type { Collection, DocumentStore } from '@wellstream/store';

interface OwnerFields {
  _id: string;
  customer_id: string;
}
type OrganizationOwner<X> = X & OwnerFields;

export interface OrganizationOwnerOptions<X> {
  /** The collection (default `organization_owners`). */
  name?: string;
  /** The service's own fields of a snapshot. */
  fields?: (o: OrganizationSnapshot) => X;
}

export class OrganizationOwnerRepository<X extends object = object> {
  private constructor(
    // Typed by the fields every projection has: a filter cannot be checked against an open X.
    private readonly owners: Collection<OwnerFields>,
    private readonly fields: (o: OrganizationSnapshot) => X,
  ) {}

  static async open<X extends object = object>(store: DocumentStore, options: OrganizationOwnerOptions<X> = {}): Promise<OrganizationOwnerRepository<X>> {
    const owners = await store.collection<OwnerFields>({ name: options.name ?? 'organization_owners' });
    return new OrganizationOwnerRepository(owners, options.fields ?? (() => ({}) as X));
  }

  /** An organization never changes customer, so the latest snapshot simply wins. */
  async apply(o: OrganizationSnapshot): Promise<void> {
    await this.owners.bulkUpsert([{ _id: o.id, customer_id: o.customer_id, ...this.fields(o) }]);
  }

  async customerOf(organizationId: string): Promise<string | undefined> {
    return (await this.find(organizationId))?.customer_id;
  }

  async find(organizationId: string): Promise<OrganizationOwner<X> | null> {
    // What apply() wrote: the owner fields and this projection's own.
    return (await this.owners.findOne({ _id: organizationId })) as OrganizationOwner<X> | null;
  }
}
