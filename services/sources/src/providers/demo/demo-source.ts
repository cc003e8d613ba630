/**
 * The demo source: for every active user with `demo` connected, publishes generated data on
 * `source-records` like any provider (records ingests it through its one ingestion path): the
 * last N days when connected, then today (and yesterday, whose sleep ends this morning) on every
 * tick. Unchanged records are absorbed by ingestion's checksum, so a tick only emits what grew.
 * Disconnect, suspension or deletion stops it (`reconcile` is called on every connection change
 * and user snapshot).
 */
import type { Clock } from '@wellstream/clock';
import { addDays, isKnownTimeZone, localDateOf, zoneOffsetSeconds } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import { DemoRecord, generateDemoDay } from './demo-day';

export const DEMO_SOURCE = 'demo';

/** What the demo source needs to know of a user. */
export interface DemoUser {
  _id: string;
  status: 'active' | 'suspended' | 'deleted';
  timezone: string | null;
  /** Whether `demo` is connected. */
  connected: boolean;
}

export interface DemoSourceOptions {
  /** The user as it stands now; null when unknown. */
  userOf(userId: string): Promise<DemoUser | null>;
  /** The users with `demo` connected (at start). */
  connectedUsers(): Promise<string[]>;
  /** Hands a day's records to records, as a provider's fetch does. */
  publish(userId: string, records: DemoRecord[]): Promise<void>;
  logger: Logger;
  clock: Clock;
  tickMs: number;
  backfillDays: number;
}

const eligible = (u: DemoUser | null): boolean => !!u && u.status === 'active' && u.connected;

export class DemoSource {
  private readonly active = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: DemoSourceOptions) {}

  async start(): Promise<void> {
    for (const id of await this.o.connectedUsers()) this.reconcile(await this.o.userOf(id));
    this.timer = setInterval(() => this.tick(), this.o.tickMs);
    this.timer.unref();
  }

  /** Called after every change of the user or of its demo connection: starts or stops its data. */
  reconcile(user: DemoUser | null): void {
    if (this.stopped || !user) return;
    if (!eligible(user)) {
      this.active.delete(user._id);
      return;
    }
    if (this.active.has(user._id)) return;
    this.active.add(user._id);
    this.track(this.backfill(user._id));
  }

  /** `reconcile` with the user as it stands now. */
  async reconcileUser(userId: string): Promise<void> {
    this.reconcile(await this.o.userOf(userId));
  }

  isRunning(userId: string): boolean {
    return this.active.has(userId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.active.clear();
    await Promise.all([...this.inFlight]);
  }

  private track(p: Promise<void>): void {
    const tracked: Promise<void> = p.catch((err) => {
      this.o.logger.warn('demo source run failed', { error: err });
    });
    this.inFlight.add(tracked);
    void tracked.then(() => this.inFlight.delete(tracked));
  }

  private tick(): void {
    for (const userId of this.active) this.track(this.refresh(userId, 1));
  }

  private backfill(userId: string): Promise<void> {
    return this.refresh(userId, this.o.backfillDays);
  }

  /** Publishes `daysBack` days before today and today (as far as it has happened), oldest first. */
  private async refresh(userId: string, daysBack: number): Promise<void> {
    const now = this.o.clock.now();
    for (let back = daysBack; back >= 0; back--) {
      // Re-read each time: a disconnect or suspension stops a long backfill midway.
      const user = await this.o.userOf(userId);
      if (!user || !eligible(user)) {
        this.active.delete(userId);
        return;
      }
      if (this.stopped || !this.active.has(userId)) return;
      const tz = user.timezone && isKnownTimeZone(user.timezone) ? user.timezone : 'UTC';
      const today = localDateOf(now, zoneOffsetSeconds(tz, now));
      const records = generateDemoDay(userId, addDays(today, -back), tz, now);
      if (records.length) await this.o.publish(userId, records);
    }
  }
}
