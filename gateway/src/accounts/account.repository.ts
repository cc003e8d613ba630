/**
 * Persistence of customers, organizations and tokens over the document-store port.
 */
import type { Collection, DocumentStore } from '@wellstream/store';
import type { Customer, DeveloperToken, Organization } from './account';

export const ORGANIZATIONS_COLLECTION = 'organizations';

export class AccountRepository {
  private constructor(
    readonly customers: Collection<Customer>,
    readonly organizations: Collection<Organization>,
    readonly tokens: Collection<DeveloperToken>,
  ) {}

  static async open(store: DocumentStore): Promise<AccountRepository> {
    return new AccountRepository(
      await store.collection<Customer>({ name: 'customers', indexes: [{ fields: { created_at: 1 } }] }),
      await store.collection<Organization>({ name: ORGANIZATIONS_COLLECTION, indexes: [{ fields: { customer_id: 1, created_at: 1 } }] }),
      // (customer_id, created_at) serves a customer's token list in order; the older index stays declared.
      await store.collection<DeveloperToken>({ name: 'tokens', indexes: [{ fields: { customer_id: 1 } }, { fields: { customer_id: 1, created_at: 1 } }] }),
    );
  }

  /** A deleted customer is kept (its id stays taken) but is found no more. */
  findCustomer = async (id: string) => {
    const c = await this.customers.findOne({ _id: id });
    return c && !c.deleted_at ? c : null;
  };
  findOrganization = (id: string) => this.organizations.findOne({ _id: id });
  findToken = (hash: string) => this.tokens.findOne({ _id: hash });
}
