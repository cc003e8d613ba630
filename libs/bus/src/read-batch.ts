/**
 * Lookups shared by the messages of one read. Every message of a batch was appended before the
 * batch was read, so a lookup made after the read sees everything written before any of them was
 * appended, as a lookup per message would: what was true when each was published. A consumer that
 * looks up the same thing for each message (the organization's push target, the user's rules) then
 * asks the store once per batch instead of once per message.
 */
export interface ReadBatch {
  /** The lookup's answer, asked once per batch for each key; a failed lookup is not kept. */
  shared<T>(key: string, lookup: () => Promise<T>): Promise<T>;
}

export class SharedLookups implements ReadBatch {
  private readonly answers = new Map<string, Promise<unknown>>();

  shared<T>(key: string, lookup: () => Promise<T>): Promise<T> {
    const known = this.answers.get(key);
    if (known) return known as Promise<T>;
    const answer = lookup();
    this.answers.set(key, answer);
    // A retry of the message must ask again, not get the same failure.
    answer.catch(() => this.answers.get(key) === answer && this.answers.delete(key));
    return answer;
  }
}

/** A batch of one message: nothing to share (adapters that deliver one message at a time). */
export const unshared: ReadBatch = { shared: (_key, lookup) => lookup() };
