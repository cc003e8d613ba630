/**
 * The demo source connector: for every active user with `demo` connected, posts generated data
 * through the normal ingestion use case — the last N days when connected, then today (and
 * yesterday, whose sleep ends this morning) on every tick. Unchanged records are absorbed by
 * ingestion's checksum, so a tick only emits what grew. Disconnect, suspension or deletion stops it
 * (the user-event consumer calls `reconcile`).
 */
import type { Logger } from '@wellstream/logging';
import { addDays, isKnownTimeZone, localDateOf, zoneOffsetSeconds } from '@wellstream/clock';
import type { ProjectedUser } from '../users/user-projection';
import type { UserProjectionRepository } from '../users/user-projection.repository';
import { generateDemoDay } from './generate-demo-day';
import type { Clock } from '@wellstream/clock';

export const DEMO_SOURCE = 'demo';

export interface DemoSourceOptions {
  users: UserProjectionRepository;
  ingest: (user: ProjectedUser, body: { records: unknown[] }) => Promise<unknown>;
  logger: Logger;
  clock: Clock;
  tickMs: number;
  backfillDays: number;
}

const eligible = (u: ProjectedUser | null): boolean => !!u && u.status === 'active' && u.sources.includes(DEMO_SOURCE);

export class DemoSource {
  private readonly active = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: DemoSourceOptions) {}

  async start(): Promise<void> {
    for (const u of await this.o.users.withSource(DEMO_SOURCE)) this.reconcile(u);
    this.timer = setInterval(() => this.tick(), this.o.tickMs);
    this.timer.unref();
  }

  /** Called with every new user snapshot: starts or stops this user's demo data. */
  reconcile(user: ProjectedUser): void {
    if (this.stopped) return;
    if (!eligible(user)) {
      this.active.delete(user._id);
      return;
    }
    if (this.active.has(user._id)) return;
    this.active.add(user._id);
    this.track(this.backfill(user._id));
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

  /** Posts `daysBack` days before today and today (as far as it has happened), oldest first. */
  private async refresh(userId: string, daysBack: number): Promise<void> {
    const now = this.o.clock.now();
    for (let back = daysBack; back >= 0; back--) {
      // Re-read each time: a disconnect or suspension stops a long backfill midway.
      const user = await this.o.users.byId(userId);
      if (!user || !eligible(user)) {
        this.active.delete(userId);
        return;
      }
      if (this.stopped || !this.active.has(userId)) return;
      const tz = user.timezone && isKnownTimeZone(user.timezone) ? user.timezone : 'UTC';
      const today = localDateOf(now, zoneOffsetSeconds(tz, now));
      const records = generateDemoDay(userId, addDays(today, -back), tz, now);
      if (records.length) await this.o.ingest(user, { records });
    }
  }
}
