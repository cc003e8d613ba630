/**
 * Runs tasks one after another per key (here: per user) inside this process, so a demo tick and a
 * mobile upload of the same user cannot interleave their read-compare-write of one record.
 */
export class SerialByKey {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
