/**
 * Where the next adoption of the users service's connections starts reading the `users` log: one
 * document, written only after a run completed, so a run cut short leaves the last one in place.
 */
import type { Collection, DocumentStore } from '@wellstream/store';

interface AdoptionMark {
  _id: string;
  /** Log time (ms) from which the next run reads. */
  read_from_ms: number;
  completed_at: string;
}

const MARK_ID = 'users-sources';

export class AdoptionMarks {
  private constructor(private readonly marks: Collection<AdoptionMark>) {}

  static async open(store: DocumentStore): Promise<AdoptionMarks> {
    return new AdoptionMarks(await store.collection<AdoptionMark>({ name: 'source_adoption_marks' }));
  }

  /** Undefined until a run completed: the next one reads the log whole. */
  async readFrom(): Promise<number | undefined> {
    return (await this.marks.findOne({ _id: MARK_ID }))?.read_from_ms;
  }

  /** Two replicas completing at once each write a valid place to start; either may stay. */
  async completed(readFromMs: number, at: string): Promise<void> {
    await this.marks.bulkUpsert([{ _id: MARK_ID, read_from_ms: readFromMs, completed_at: at }]);
  }
}
