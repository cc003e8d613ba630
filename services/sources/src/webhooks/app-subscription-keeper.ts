/**
 * Keeps a provider's app-level webhook subscriptions (Oura, Polar) as they should be: while any
 * user is connected, one live subscription per wanted notification kind, renewed well before it
 * expires, and replaced when its secret is returned only on creation (Polar) and not held here;
 * none once the last connection is gone. Runs at start, every hour, and after connects and
 * disconnects; a round that failed (the provider down or rate limited) again after 30 s, doubling.
 * Replicas take turns through a lease, so two never create the same subscription.
 */
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import type { Collection, DocumentStore } from '@wellstream/store';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { Provider, ProviderRegistry } from '../providers/provider-registry';
import type { TokenVault } from '../vault/token-vault';
import type { AppSubscriptionSecrets } from './app-subscription-secrets';
import { EPOCH } from '../sync/sync-job';

const EVERY_MS = 3600_000;
/** Renew when less than this is left (Oura's subscriptions last weeks; an hourly check is plenty). */
const RENEW_AHEAD_MS = 7 * 24 * 3600_000;
const LEASE_MS = 5 * 60_000;
/** A failed round (the provider down or rate limited) is tried again after this, doubling up to the hour. */
const RETRY_FIRST_MS = 30_000;

interface Lease {
  _id: string;
  until: string;
}

export class AppSubscriptionKeeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_FIRST_MS;

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
    await this.running;
  }

  /** For tests: wait for a round to finish. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async keepAll(): Promise<void> {
    let failed = false;
    for (const p of this.o.registry.all()) {
      if (!p.adapter.appSubscriptions) continue;
      try {
        if (!(await this.takeLease(p.type))) continue;
        // The lease only keeps two replicas from one round at once: give it back when done, so a
        // connect a moment later gets its own round instead of waiting for the lease to run out.
        await this.keep(p).finally(() => this.leases.findOneAndUpdate({ _id: `app-subscriptions:${p.type}` }, { $set: { until: EPOCH } }));
      } catch (err) {
        failed = true;
        this.o.logger.warn('could not keep the provider\'s webhook subscriptions; trying again soon', { source_type: p.type, retry_in_ms: this.retryMs, error: err });
      }
    }
    if (!failed) {
      this.retryMs = RETRY_FIRST_MS;
      return;
    }
    // Live data depends on these subscriptions: an hour without them is too long to wait.
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.kick();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(EVERY_MS, this.retryMs * 2);
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
