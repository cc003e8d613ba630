/**
 * The rules service's projection of organizations, fed by the `organizations` topic: only what it
 * needs, the per-organization rules switch (null = follow WELLSTREAM_RULES_ENABLED).
 */
import type { OrganizationSnapshot } from '@wellstream/contracts';
import { Collection, DocumentStore, DuplicateKeyError } from '@wellstream/store';

export interface KnownOrganization {
  _id: string;
  customer_id: string;
  rules_enabled: boolean | null;
  updated_at: string;
}

export class OrganizationProjectionRepository {
  private constructor(readonly organizations: Collection<KnownOrganization>) {}

  static async open(store: DocumentStore): Promise<OrganizationProjectionRepository> {
    return new OrganizationProjectionRepository(await store.collection<KnownOrganization>({ name: 'organizations' }));
  }

  /** Keeps the snapshot unless a newer one is stored (see UserProjectionRepository.apply). */
  async apply(org: OrganizationSnapshot): Promise<void> {
    const fields = { customer_id: org.customer_id, rules_enabled: org.settings.rules_enabled, updated_at: org.updated_at };
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await this.organizations.findOne({ _id: org.id });
      if (current) {
        await this.organizations.findOneAndUpdate({ _id: org.id, updated_at: { $lte: org.updated_at } }, { $set: fields });
        return;
      }
      try {
        await this.organizations.insertOne({ _id: org.id, ...fields });
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
  }

  find = (id: string) => this.organizations.findOne({ _id: id });

  customerOf = async (id: string): Promise<string | undefined> => (await this.find(id))?.customer_id;
}
