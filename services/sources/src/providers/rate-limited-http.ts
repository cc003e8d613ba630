/**
 * A provider's HTTP client with its limits kept: a per-application budget per minute (below the
 * provider's documented limit), and pauses the provider asked for (429 with Retry-After, or its own
 * headers, which adapters turn into ProviderError('rate_limited')) for the whole application or
 * one connection. A call that would break a limit does not wait on the event loop: it fails at once
 * with rate_limited and the time to wait, and the scheduler puts the job back for then.
 * The budget is per process; replicas share the provider's limit, so each keeps its own share
 * (documented in the service README). Background sync may spend only 80 % of it: the rest is kept
 * for what a person is waiting on (the code exchange of a Connect), so a large backfill never
 * makes a user's Connect fail.
 */
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse } from './provider.port';

const BACKGROUND_SHARE = 0.8;

export class RateLimitedHttp {
  private windowStart = 0;
  private used = 0;
  private appPausedUntil = 0;
  private readonly userPausedUntil = new Map<string, number>();

  constructor(
    private readonly transport: ProviderHttp,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The ProviderHttp an adapter uses for one connection's background sync (or for the app, with no key). */
  for(connectionKey?: string): ProviderHttp {
    return { send: (request) => this.send(request, connectionKey, BACKGROUND_SHARE) };
  }

  /** For calls a person is waiting on (Connect's code exchange): the whole budget. */
  interactive(connectionKey?: string): ProviderHttp {
    return { send: (request) => this.send(request, connectionKey, 1) };
  }

  /** The provider asked us to wait: for everyone (app) or for one connection. */
  pause(ms: number, connectionKey?: string): void {
    const until = this.now() + ms;
    if (connectionKey) this.userPausedUntil.set(connectionKey, Math.max(until, this.userPausedUntil.get(connectionKey) ?? 0));
    else this.appPausedUntil = Math.max(this.appPausedUntil, until);
  }

  private async send(request: ProviderRequest, connectionKey: string | undefined, share: number): Promise<ProviderResponse> {
    const t = this.now();
    const wait = Math.max(this.appPausedUntil - t, connectionKey ? (this.userPausedUntil.get(connectionKey) ?? 0) - t : 0);
    if (wait > 0) throw new ProviderError('rate_limited', 'waiting for the provider\'s rate limit', { retryAfterMs: wait });
    if (t - this.windowStart >= 60_000) {
      this.windowStart = t;
      this.used = 0;
    }
    if (this.used >= Math.floor(this.perMinute * share)) throw new ProviderError('rate_limited', 'the application\'s request budget for this minute is spent', { retryAfterMs: this.windowStart + 60_000 - t });
    this.used++;
    if (connectionKey && (this.userPausedUntil.get(connectionKey) ?? 0) < t) this.userPausedUntil.delete(connectionKey);
    const res = await this.transport.send(request);
    if (res.status === 429) {
      // A 429 on a user's data call pauses that connection (providers count per user as well as per
      // app, and the app budget above keeps us under the app's limit); one on an app call pauses the
      // app. Only for as long as Retry-After says: a provider's own headers (WHOOP's and Strava's
      // reset times) are read by its adapter, whose ProviderError puts the job back for that long.
      const retry = retryAfterMs(res.headers['retry-after']);
      if (retry !== undefined) this.pause(retry, connectionKey);
    }
    return res;
  }
}

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
