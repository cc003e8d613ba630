/**
 * The users service's projection of the `source-providers` topic: which cloud sources this
 * deployment offers (the sources service has their credentials), how far back each reads, and
 * where its sign-in page lives. The marketplace lists a cloud source only when it is offered here,
 * and its Content-Security-Policy lets form posts end on those sign-in pages.
 */
import { SOURCES } from '@wellstream/catalog';
import type { SourceProviderEvent } from '@wellstream/contracts';
import type { Collection, DocumentStore } from '@wellstream/store';
import { DuplicateKeyError } from '@wellstream/store';

export type SourceProvider = Omit<SourceProviderEvent, 'type'>;

interface SourceProviderDoc extends SourceProvider {
  /** The source type. */
  _id: string;
}

export const SOURCE_PROVIDERS_COLLECTION = 'source_providers';

const CLOUD_TYPES = SOURCES.filter((s) => s.kind === 'cloud').map((s) => s.type);

export class SourceProviderRepository {
  private constructor(private readonly providers: Collection<SourceProviderDoc>) {}

  static async open(store: DocumentStore): Promise<SourceProviderRepository> {
    return new SourceProviderRepository(await store.collection<SourceProviderDoc>({ name: SOURCE_PROVIDERS_COLLECTION }));
  }

  /**
   * Stores the provider's entry unless the stored one is as new or newer (the topic is read from
   * the beginning and delivered at least once). `occurred_at` values are toISOString() forms (the
   * contract's joi schema normalizes them), so they compare as strings. True when stored.
   */
  async apply(p: SourceProvider): Promise<boolean> {
    const fields: SourceProvider = {
      source_type: p.source_type,
      offered: p.offered,
      history_days: p.history_days,
      note: p.note,
      authorize_origin: p.authorize_origin,
      occurred_at: p.occurred_at,
    };
    if (await this.providers.findOneAndUpdate({ _id: p.source_type, occurred_at: { $lt: p.occurred_at } }, { $set: { ...fields } })) return true;
    try {
      await this.providers.insertOne({ _id: p.source_type, ...fields });
      return true;
    } catch (err) {
      // Stored already, as new or newer.
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** Every cloud source of the catalog announced so far, offered or not (a handful; by _id, so no scan). */
  async list(): Promise<SourceProvider[]> {
    const docs = await this.providers.find({ _id: { $in: CLOUD_TYPES } });
    return docs.map(({ _id, ...p }) => ({ ...p, source_type: _id }));
  }
}
