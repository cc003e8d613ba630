/**
 * Counts a stream's connected clients. The event log's group membership is the truth across
 * replicas; the local count covers the moment between accepting a client and its join completing
 * (and makes the member limit atomic within one replica). Pokes read a cached figure so that many
 * connections do not each ask the log every interval.
 */
import type { EventLog } from '@wellstream/bus';

export class MemberCounter {
  private readonly local = new Map<string, number>();
  private readonly cache = new Map<string, { count: number; at: number }>();

  constructor(
    private readonly eventLog: EventLog,
    private readonly cacheMs = 1000,
  ) {}

  /** Counts one more local client until the returned release is called (idempotent). */
  reserve(group: string): () => void {
    this.local.set(group, (this.local.get(group) ?? 0) + 1);
    this.cache.delete(group);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.local.get(group) ?? 1) - 1;
      if (n <= 0) this.local.delete(group);
      else this.local.set(group, n);
      this.cache.delete(group);
    };
  }

  localCount(group: string): number {
    return this.local.get(group) ?? 0;
  }

  /** Fresh figure from the log (for decisions: delete, member limit, GET). */
  async count(group: string): Promise<number> {
    const remote = await this.eventLog.groupMemberCount(group);
    this.cache.set(group, { count: remote, at: Date.now() });
    return Math.max(remote, this.localCount(group));
  }

  /** At most `cacheMs` old (for pokes). */
  async cachedCount(group: string): Promise<number> {
    const hit = this.cache.get(group);
    if (hit && Date.now() - hit.at < this.cacheMs) return Math.max(hit.count, this.localCount(group));
    return this.count(group);
  }

  forget(group: string): void {
    this.cache.delete(group);
  }
}
