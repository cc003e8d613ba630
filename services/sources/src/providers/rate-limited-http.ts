/**
 * A provider's HTTP client with its limits kept, for our application as a whole across every
 * replica (the ProviderBudgetStore: Redis in distributed mode). Two rules:
 * - Every request is counted in each window the provider documents (per 15 minutes, per day, …)
 *   before it is sent, and refused at once (ProviderError('rate_limited') with the time to wait;
 *   nothing waits on the event loop, the scheduler puts the job back for then) when its class's
 *   share of a window is spent. The shares order the work within the budget: what a person or the
 *   provider's contract waits on (a Connect's code exchange, a revoke) may spend everything, live
 *   fetches a notification asked for 95 %, polls 80 %, history 60 %. So history can never take
 *   the room a notification's fetch needs, and polls never the room of a live fetch.
 * - A provider that also limits each user (BudgetOptions.userWindows) has those windows kept per
 *   connection in the same take, with the same class shares: one busy connection is refused
 *   (rate_limited, its job put back) while every other connection goes on.
 * - When an answer says to stop (a 429, or rate-limit headers saying a window is spent: see
 *   kit/rate-limit-headers.ts), the whole application pauses until the provider's reset: no
 *   request at all leaves any replica before then.
 */
import type { BudgetWindow, ProviderBudgetStore } from './budget/provider-budget.port';
import { rateLimitWaitMs } from './kit/rate-limit-headers';
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse } from './provider.port';

export type RequestClass = 'urgent' | 'live' | 'poll' | 'history';

/** Each class's share of every window (see above). */
export const CLASS_SHARE: Record<RequestClass, number> = { urgent: 1, live: 0.95, poll: 0.8, history: 0.6 };

export interface BudgetOptions {
  /** The budget's key: one per provider application (its type). */
  key: string;
  windows: readonly BudgetWindow[];
  /** The provider's limits per user, kept per connection (none: the application's windows alone). */
  userWindows?: readonly BudgetWindow[];
  /** What a 429 waits when no header says. */
  fallbackWaitMs: number;
  logger?: { warn(message: string, meta?: Record<string, unknown>): unknown };
}

export class RateLimitedHttp {
  constructor(
    private readonly transport: ProviderHttp,
    private readonly store: ProviderBudgetStore,
    private readonly o: BudgetOptions,
    private readonly now: () => number = Date.now,
  ) {}

  get windows(): readonly BudgetWindow[] {
    return this.o.windows;
  }

  /**
   * The ProviderHttp for one kind of work (sync passes its job's kind; default a poll's share) on
   * behalf of one connection, whose per-user windows count it too (none given: the application's alone).
   */
  for(connectionKey?: string, cls: RequestClass = 'poll'): ProviderHttp {
    return { send: (request) => this.send(request, cls, connectionKey) };
  }

  /** For calls a person is waiting on (Connect's code exchange) and revokes: the whole budget. */
  interactive(connectionKey?: string): ProviderHttp {
    return { send: (request) => this.send(request, 'urgent', connectionKey) };
  }

  /** The provider asked us to wait `ms` (its adapter read it from the answer): every replica waits. */
  async pause(ms: number): Promise<void> {
    const t = this.now();
    await this.store.pause(this.o.key, t + ms, t);
  }

  private async send(request: ProviderRequest, cls: RequestClass, connectionKey?: string): Promise<ProviderResponse> {
    const user = connectionKey !== undefined && this.o.userWindows?.length ? { id: connectionKey, windows: this.o.userWindows } : undefined;
    let take;
    try {
      take = await this.store.take(this.o.key, this.o.windows, CLASS_SHARE[cls], this.now(), user);
    } catch (err) {
      // Without the shared count we cannot know the budget holds: wait and retry, like an outage.
      this.o.logger?.warn('provider budget store unavailable: request not sent', { provider: this.o.key, error: err });
      throw new ProviderError('temporary', 'the provider budget store is unavailable', { status: 503 });
    }
    if (!take.allowed) throw new ProviderError('rate_limited', `the ${this.o.key} budget for ${cls} work (the application's${user ? ', or this connection\'s' : ''}) is spent or paused`, { retryAfterMs: take.retryAfterMs });
    const res = await this.transport.send(request);
    const t = this.now();
    const wait = rateLimitWaitMs(res.status, res.headers, t, this.o.fallbackWaitMs);
    if (wait !== undefined && wait > 0) {
      await this.store.pause(this.o.key, t + wait, t).catch((err) => this.o.logger?.warn('provider budget: could not record a pause', { error: err }));
    }
    return res;
  }
}
