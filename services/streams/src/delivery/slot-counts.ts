/**
 * Counts of slots held per key (clients of a stream, connections of a customer): taking one
 * returns its release, which is idempotent; keys with nothing held are dropped, so the map stays
 * as small as what is open.
 */
export class SlotCounts {
  private readonly held = new Map<string, number>();

  /** What is held now, per key (a copy). */
  entries(): Map<string, number> {
    return new Map(this.held);
  }

  count(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** Takes a slot; `onChange` runs after the take and after the release. */
  take(key: string, onChange?: () => void): () => void {
    this.held.set(key, this.count(key) + 1);
    onChange?.();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.count(key) - 1;
      if (left <= 0) this.held.delete(key);
      else this.held.set(key, left);
      onChange?.();
    };
  }
}
