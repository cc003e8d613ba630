/**
 * Organizations' source priority settings, one document per organization keyed by its id (every
 * read and write is a primary-key lookup). An organization without one uses the default.
 */
import type { Collection, DocumentStore } from '@wellstream/store';
import type { SourcePrioritySetting } from './source-priority';

export interface SourcePriorityDoc extends SourcePrioritySetting {
  _id: string;
  updated_at: string;
}

export class SourcePriorityRepository {
  private constructor(private readonly docs: Collection<SourcePriorityDoc>) {}

  static async open(store: DocumentStore): Promise<SourcePriorityRepository> {
    return new SourcePriorityRepository(await store.collection<SourcePriorityDoc>({ name: 'source_priorities' }));
  }

  find(organizationId: string): Promise<SourcePriorityDoc | null> {
    return this.docs.findOne({ _id: organizationId });
  }

  async save(doc: SourcePriorityDoc): Promise<void> {
    await this.docs.bulkUpsert([doc]);
  }
}
