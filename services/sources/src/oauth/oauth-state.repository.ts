/**
 * Pending OAuth states. A backlog: each leaves when used or once expired (swept), so the
 * collection never holds more than the connects of the last ten minutes.
 */
import type { Collection, DocumentStore } from '@wellstream/store';
import type { OAuthStateDoc } from './oauth-state';

export class OAuthStateRepository {
  private constructor(private readonly states: Collection<OAuthStateDoc>) {}

  static async open(store: DocumentStore): Promise<OAuthStateRepository> {
    return new OAuthStateRepository(await store.collection<OAuthStateDoc>({ name: 'oauth_states', backlog: true, indexes: [{ fields: { expires_at: 1 } }] }));
  }

  add(doc: OAuthStateDoc): Promise<void> {
    return this.states.insertOne(doc);
  }

  /** Reads and deletes in one go: only the caller whose delete removed it may use it (single use). */
  async take(nonce: string): Promise<OAuthStateDoc | null> {
    const doc = await this.states.findOne({ _id: nonce });
    if (!doc) return null;
    return (await this.states.deleteMany({ _id: nonce })) === 1 ? doc : null;
  }

  sweepExpired(now: Date): Promise<number> {
    return this.states.deleteMany({ expires_at: { $lt: now.toISOString() } });
  }
}
