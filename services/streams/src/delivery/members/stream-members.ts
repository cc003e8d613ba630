/**
 * Counts a stream's connected clients across replicas. Each replica counts its own clients exactly
 * (which also makes the member limit atomic within a replica) and publishes them in the member
 * directory; the others' figures come from a snapshot of the directory shared by every question
 * asked within `freshMs` (decisions: member limit, GET, DELETE) or `cachedMs` (pokes), so a
 * thousand pokes a second cost one read, not a thousand.
 *
 * A replica that is killed stops publishing; its document expires after one poke interval, so a
 * count never includes a client gone for longer than that.
 */
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import { SlotCounts } from '../slot-counts';
import type { MemberDirectory } from './member-directory';

export interface StreamMembersSettings {
  replicaId: string;
  /** A replica's counts hold this long after its last beat (the poke interval). */
  ttlMs: number;
  freshMs?: number;
  cachedMs?: number;
}

export class StreamMembers {
  private readonly local = new SlotCounts();
  private snapshot: { others: Map<string, number>; at: number } = { others: new Map(), at: -Infinity };
  private reading?: Promise<Map<string, number>>;
  private beat?: NodeJS.Timeout;
  private dirty = false;
  private publishing?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly directory: MemberDirectory,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: StreamMembersSettings,
  ) {}

  /** Publishes at a steady pace (a quarter of the lifetime) so live counts never expire. */
  start(): void {
    const every = Math.max(25, Math.floor(this.settings.ttlMs / 4));
    let beats = 0;
    this.beat = setInterval(() => {
      void this.publish();
      // Now and then, forget replicas dead for a long while (their documents are ignored anyway).
      if (++beats % 240 === 0) void this.directory.sweep(new Date(this.clock.now().getTime() - 3_600_000)).catch(() => {});
    }, every);
    this.beat.unref();
    void this.publish();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.beat);
    await this.publishing;
    await this.directory.remove(this.settings.replicaId).catch((err) => this.logger.warn('removing this replica’s member counts failed', { error: err }));
  }

  /** Counts one more local client until the returned release is called (idempotent). */
  reserve(group: string): () => void {
    return this.local.take(group, () => this.changed());
  }

  localCount(group: string): number {
    return this.local.count(group);
  }

  /** For decisions (member limit, GET, DELETE): other replicas as of at most `freshMs` ago. */
  async count(group: string): Promise<number> {
    return this.localCount(group) + ((await this.others(this.settings.freshMs ?? 250)).get(group) ?? 0);
  }

  /**
   * For pokes, without waiting and without failing: a poke goes out every interval whatever the
   * store does. Past `cachedMs` a fresh read starts and this answer uses the last snapshot while it
   * is younger than a replica's lifetime (`ttlMs`), and this replica's own clients alone after that
   * (the others' counts would have expired by then), so a store outage stops no poke and a count
   * never includes a client gone for longer than that.
   */
  cachedCountNow(group: string): number {
    const age = this.clock.now().getTime() - this.snapshot.at;
    if (age > (this.settings.cachedMs ?? 1000)) void this.others(0).catch(() => {});
    return this.localCount(group) + (age <= this.settings.ttlMs ? (this.snapshot.others.get(group) ?? 0) : 0);
  }

  private async others(maxAgeMs: number): Promise<Map<string, number>> {
    if (this.clock.now().getTime() - this.snapshot.at <= maxAgeMs) return this.snapshot.others;
    this.reading ??= (async () => {
      const startedAt = this.clock.now().getTime();
      try {
        const others = await this.directory.others(this.settings.replicaId, this.clock.now());
        this.snapshot = { others, at: startedAt };
        return others;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /** A count changed: publish soon, once for a burst of changes. */
  private changed(): void {
    if (this.dirty) return;
    this.dirty = true;
    setTimeout(() => void this.publish(), 50).unref();
  }

  private publish(): Promise<void> {
    // One write at a time; changes made during a write go out in the next round of the same loop.
    this.publishing ??= (async () => {
      try {
        do {
          this.dirty = false;
          if (this.stopped) return;
          const aliveUntil = new Date(this.clock.now().getTime() + this.settings.ttlMs);
          await this.directory.publish(this.settings.replicaId, this.local.entries(), aliveUntil);
        } while (this.dirty);
      } catch (err) {
        this.logger.warn('publishing member counts failed; the next beat tries again', { error: err });
      } finally {
        this.publishing = undefined;
      }
    })();
    return this.publishing;
  }
}
