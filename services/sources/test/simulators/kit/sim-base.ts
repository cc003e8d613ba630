/**
 * The skeleton every provider simulator repeats, once: the loopback server and its start/stop, the
 * accounts by the provider's user key, scripted faults (`failNext`), data calls and token calls summed
 * into `stats`, the browser user of the consent page, and the five settings pointing the platform
 * here. What a provider answers (its routes, error bodies, fault answers, consent words, token rules)
 * stays in its own `simulator/`, written from its documents; a subclass only names those parts.
 */
import type { IncomingMessage } from 'node:http';
import type { ProviderSimulator, SimulatedUser } from '../provider-simulator';
import { ConsentPage, consentDecision, consentPage } from './sim-consent-page';
import { CallCounter, ScriptedFaults, SimStats, sumStats, TokenCounts } from './sim-faults';
import { SimReply, SimServer } from './sim-server';

/** What the base needs of a simulator's OAuth server (its grants and token formats stay its own). */
export interface SimAuthServer<K> {
  readonly counts: { get(userId: K): TokenCounts | undefined };
  /** The provider's consent for `userId` on our authorize URL: the redirect it sends the browser to. */
  consent(authorizeUrl: string, userId: K, decision: 'allow' | 'deny'): string;
  expireAccessTokens(userId: K): void;
  revokeGrants(userId: K): void;
}

export abstract class SimulatorBase<A, K = string> implements Pick<ProviderSimulator, 'url' | 'start' | 'stop' | 'env' | 'authorize' | 'setBrowserUser' | 'expireAccessTokens' | 'revokeGrant' | 'failNext' | 'stats'> {
  abstract readonly type: string;
  protected readonly server = new SimServer();
  protected readonly accounts = new Map<K, A>();
  protected readonly dataCalls = new CallCounter<K>();
  protected readonly faults = new ScriptedFaults();
  protected browserUser?: SimulatedUser;
  protected abstract readonly client: { id: string; secret: string };
  protected abstract readonly auth: SimAuthServer<K>;
  /** The provider's name in the simulator's own errors ("unknown Oura user …"). */
  protected abstract readonly label: string;

  /** Answers one request in the provider's documented way. */
  protected abstract handle(req: IncomingMessage): Promise<SimReply>;
  /** A handler that threw, answered in the provider's own error shape (a readable 500). */
  protected abstract crashed(message: string): SimReply;
  /** Where the platform is pointed: the authorize and token URLs (whole URLs, on this server). */
  protected abstract endpoints(): { auth: string; token: string; api?: string; extra?: Record<string, string> };

  get url(): string {
    return this.server.url;
  }

  async start(): Promise<void> {
    await this.server.start((req) => this.handle(req), (message) => this.crashed(message));
  }

  async stop(): Promise<void> {
    await this.server.stop();
  }

  /** WELLSTREAM_SOURCE_<TYPE>_CLIENT_ID, _CLIENT_SECRET, _AUTH_URL, _TOKEN_URL, _API_URL (and the provider's extra settings). */
  env(): Record<string, string> {
    const prefix = `WELLSTREAM_SOURCE_${this.type.toUpperCase()}`;
    const e = this.endpoints();
    return {
      [`${prefix}_CLIENT_ID`]: this.client.id,
      [`${prefix}_CLIENT_SECRET`]: this.client.secret,
      ...e.extra,
      [`${prefix}_AUTH_URL`]: e.auth,
      [`${prefix}_TOKEN_URL`]: e.token,
      [`${prefix}_API_URL`]: e.api ?? this.url,
    };
  }

  /** The provider's key of a simulated user (its id as the provider types it). */
  protected keyOf(user: SimulatedUser): K {
    return user.providerUserId as unknown as K;
  }

  protected account(user: SimulatedUser): A {
    const a = this.accounts.get(this.keyOf(user));
    if (!a) throw new Error(`unknown ${this.label} user ${user.providerUserId}`);
    return a;
  }

  authorize(authorizeUrl: string, user: SimulatedUser, decision: 'allow' | 'deny'): string {
    this.account(user);
    return this.auth.consent(authorizeUrl, this.keyOf(user), decision);
  }

  setBrowserUser(user: SimulatedUser): void {
    this.browserUser = user;
  }

  expireAccessTokens(user: SimulatedUser): void {
    this.auth.expireAccessTokens(this.keyOf(user));
  }

  revokeGrant(user: SimulatedUser): void {
    this.auth.revokeGrants(this.keyOf(user));
  }

  failNext(count: number, status: number | 'garbage', retryAfterS?: number): void {
    this.faults.set(count, status, retryAfterS);
  }

  stats(user?: SimulatedUser): SimStats {
    return sumStats(user ? [this.keyOf(user)] : [...this.accounts.keys()], (id) => this.auth.counts.get(id), this.dataCalls);
  }

  /**
   * The authorize path in a browser: GET shows the consent page for the browser user, its Allow/Deny
   * POST answers the 302 `consent` produces; `noUser` (the provider's error shape) when none was set.
   */
  protected consentRoute(method: string, url: URL, body: string, page: ConsentPage, noUser: () => SimReply): SimReply {
    if (method === 'POST') return consentDecision(new URLSearchParams(body), this.browserUser, (authorizeUrl, who, decision) => this.auth.consent(authorizeUrl, this.keyOf(who), decision), noUser);
    return consentPage(url, this.browserUser, page);
  }
}

/**
 * A provider's POST to our webhook (its own headers and bytes); resolves to our HTTP status. With
 * `timeoutMs` the provider gives up waiting for our answer (an error), as the simulators that had one do.
 */
export async function postToWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs?: number): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers, body, ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }) });
  await res.arrayBuffer();
  return res.status;
}
