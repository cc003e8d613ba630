/**
 * Keeps a provider's app-level webhook subscriptions (Oura, Polar, Strava) as they should be: while
 * any user is connected, one live subscription per wanted notification kind, renewed well before it
 * expires, and replaced when its secret is returned only on creation (Polar) and not held here;
 * none once the last connection is gone. Runs at start, every hour, and after connects and
 * disconnects. Replicas take turns through a lease, so two never create the same subscription.
 *
 * Without its subscription a provider sends no notification at all, so these calls go before
 * everything else: they use the whole request budget (as a Connect does, not background sync's
 * share), and a round that fails (our budget spent, the provider down or limiting) is tried again
 * for that provider within seconds to minutes (RETRY_MS, or the wait the provider asked for), not an
 * hour later.
 */
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import type { Collection, DocumentStore } from '@wellstream/store';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { Provider, ProviderRegistry } from '../providers/provider-registry';
import type { TokenVault } from '../vault/token-vault';
import type { AppSubscriptionSecrets } from './app-subscription-secrets';
import { EPOCH } from '../sync/sync-job';
import { isProviderError } from '../providers/provider.port';

const EVERY_MS = 3600_000;
/** Renew when less than this is left (Oura's subscriptions last weeks; an hourly check is plenty). */
const RENEW_AHEAD_MS = 7 * 24 * 3600_000;
const LEASE_MS = 5 * 60_000;
/** After a failed round: 5 s, 10 s, 20 s … at most five minutes (a provider's own longer wait is kept, up to the hourly round). */
const RETRY_MS = { first: 5_000, max: 5 * 60_000 };

export const retryDelayMs = (failures: number, providerWaitMs?: number): number =>
  providerWaitMs !== undefined ? Math.min(EVERY_MS, Math.max(1000, providerWaitMs)) : Math.min(RETRY_MS.max, RETRY_MS.first * 2 ** Math.min(failures - 1, 10));

interface Lease {
  _id: string;
  until: string;
}

export class AppSubscriptionKeeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly failures = new Map<string, number>();
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDue = 0;

  private constructor(
    private readonly o: { registry: ProviderRegistry; connections: ConnectionRepository; secrets: AppSubscriptionSecrets; vault: TokenVault; clock: Clock; logger: Logger },
    private readonly leases: Collection<Lease>,
  ) {}

  static async open(store: DocumentStore, o: AppSubscriptionKeeper['o']): Promise<AppSubscriptionKeeper> {
    return new AppSubscriptionKeeper(o, await store.collection<Lease>({ name: 'leases' }));
  }

  /** The verification token our webhook answers with (derived from the vault key: no extra setting). */
  static verificationToken(vault: TokenVault, type: string): string {
    return vault.mac('webhook-verification', type).slice(0, 32);
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), EVERY_MS);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.running) {
      // A change during a round (a connect, a disconnect) gets a round of its own after it.
      this.again = true;
      return;
    }
    this.running = this.keepAll().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.running;
  }

  /** For tests: wait for a round to finish. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async keepAll(): Promise<void> {
    for (const p of this.o.registry.all()) {
      if (!p.adapter.appSubscriptions) continue;
      try {
        if (!(await this.takeLease(p.type))) continue;
        // The lease only keeps two replicas from one round at once: give it back when done, so a
        // connect a moment later gets its own round instead of waiting for the lease to run out.
        await this.keep(p).finally(() => this.leases.findOneAndUpdate({ _id: `app-subscriptions:${p.type}` }, { $set: { until: EPOCH } }));
        this.failures.delete(p.type);
      } catch (err) {
        const failures = (this.failures.get(p.type) ?? 0) + 1;
        this.failures.set(p.type, failures);
        const wait = retryDelayMs(failures, isProviderError(err) && err.kind === 'rate_limited' ? err.details.retryAfterMs : undefined);
        this.o.logger.warn('could not keep the provider\'s webhook subscriptions; trying again soon', { source_type: p.type, retry_in_ms: wait, error: err });
        this.retryLater(wait);
      }
    }
  }

  /** One timer, at the soonest retry asked: the round it starts covers every provider. */
  private retryLater(ms: number): void {
    const due = Date.now() + ms;
    if (this.retryTimer && this.retryDue <= due) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryDue = due;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.kick();
    }, ms);
    this.retryTimer.unref();
  }

  private async takeLease(type: string): Promise<boolean> {
    const now = this.o.clock.now();
    const id = `app-subscriptions:${type}`;
    const until = new Date(now.getTime() + LEASE_MS).toISOString();
    const taken = await this.leases.findOneAndUpdate({ _id: id, until: { $lt: now.toISOString() } }, { $set: { until } });
    if (taken) return true;
    try {
      await this.leases.insertOne({ _id: id, until });
      return true;
    } catch {
      return false;
    }
  }

  private async keep(p: Provider): Promise<void> {
    const subs = p.adapter.appSubscriptions!;
    // The whole budget: without these calls no notification comes at all.
    const http = p.http.interactive();
    const existing = await subs.list(http, p.settings);
    const needed = await this.o.connections.anyOf(p.type);
    const now = this.o.clock.now().getTime();
    if (!needed) {
      for (const s of existing) {
        await subs.remove(http, p.settings, s);
        await this.o.secrets.remove(p.type, s.id);
      }
      if (existing.length > 0) this.o.logger.info('removed webhook subscriptions: no user is connected', { source_type: p.type, count: existing.length });
      return;
    }
    const held = subs.secretOnlyOnCreate ? await this.o.secrets.ids(p.type) : [];
    for (const want of subs.wanted()) {
      let have = existing.find((s) => s.key === want.key);
      if (have && subs.secretOnlyOnCreate && !held.includes(have.id)) {
        // Ours (at our URL) but its secret is not here (a lost database, or another deployment with
        // this client recreated it): nothing it delivers could be verified. Replace it.
        this.o.logger.warn('replacing a webhook subscription whose signature secret this deployment does not hold', { source_type: p.type, key: want.key });
        await subs.remove(http, p.settings, have);
        have = undefined;
      }
      if (!have) {
        const created = await subs.create(http, p.settings, want, AppSubscriptionKeeper.verificationToken(this.o.vault, p.type));
        // Returned once (Polar): without it no notification of this subscription could be verified.
        if (created.secret) await this.o.secrets.add(p.type, created.id, created.secret, this.o.clock.now());
        this.o.logger.info('created a webhook subscription', { source_type: p.type, key: want.key });
      } else if (have.expiresAt && Date.parse(have.expiresAt) - now < RENEW_AHEAD_MS) {
        await subs.renew(http, p.settings, have);
        this.o.logger.info('renewed a webhook subscription', { source_type: p.type, key: want.key });
      }
    }
  }
}
