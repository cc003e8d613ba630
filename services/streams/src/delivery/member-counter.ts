/**
 * Counts a stream's connected clients. The event log's group membership is the truth across
 * replicas; the local count covers the moment between accepting a client and its join completing
 * (and makes the member limit atomic within one replica). Pokes read a cached figure so that many
 * connections do not each ask the log every interval.
 */
import type { EventLog } from '@wellstream/bus';
import { SlotCounts } from './slot-counts';

export class MemberCounter {
  private readonly local = new SlotCounts();
  private readonly cache = new Map<string, { count: number; at: number }>();

  constructor(
    private readonly eventLog: EventLog,
    private readonly cacheMs = 1000,
  ) {}

  /** Counts one more local client until the returned release is called (idempotent). */
  reserve(group: string): () => void {
    return this.local.take(group, () => this.cache.delete(group));
  }

  localCount(group: string): number {
    return this.local.count(group);
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
