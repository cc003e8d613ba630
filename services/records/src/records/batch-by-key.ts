/**
 * Runs work one batch at a time per key (here: per user) inside this process, so a demo tick and
 * a mobile upload of the same user cannot interleave their read-compare-write of one record. Items
 * that arrive for a key while its batch runs wait and go together in the next batch: a burst of one
 * user's uploads then costs one read of the user, one lookup of its records and one transaction,
 * not one of each per upload. A quiet key's first batch starts once the current turn of the event
 * loop is done, so the uploads read from the network in that turn (whose store calls would
 * otherwise all complete within it, one by one) go together.
 */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Waiting<I, R> {
  item: I;
  weight: number;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

export class BatchByKey<I, R> {
  private readonly waiting = new Map<string, Waiting<I, R>[]>();
  private readonly running = new Set<string>();

  /** `maxWeight`: a batch takes items until their weights add up to this (at least one item). */
  constructor(private readonly maxWeight: number) {}

  /**
   * Resolves to this item's outcome once its batch ran. `handle` gets a batch's items in arrival
   * order and answers one outcome per item; every caller of one instance passes the same handler.
   */
  run(key: string, item: I, weight: number, handle: (items: I[]) => Promise<Outcome<R>[]>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.waiting.get(key) ?? this.waiting.set(key, []).get(key)!;
      queue.push({ item, weight, resolve, reject });
      if (!this.running.has(key)) {
        this.running.add(key);
        setImmediate(() => void this.drain(key, handle));
      }
    });
  }

  private async drain(key: string, handle: (items: I[]) => Promise<Outcome<R>[]>): Promise<void> {
    try {
      for (let queue = this.waiting.get(key); queue && queue.length > 0; queue = this.waiting.get(key)) {
        let weight = 0;
        let n = 0;
        while (n < queue.length && (n === 0 || weight + queue[n].weight <= this.maxWeight)) weight += queue[n++].weight;
        const batch = queue.splice(0, n);
        if (queue.length === 0) this.waiting.delete(key);
        try {
          const outcomes = await handle(batch.map((w) => w.item));
          batch.forEach((w, i) => {
            const o = outcomes[i];
            if (o.ok) w.resolve(o.value);
            else w.reject(o.error);
          });
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.running.delete(key);
    }
  }
}
