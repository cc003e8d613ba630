/**
 * A short-lived, bounded cache in front of the token and organization lookups that every request
 * makes. A revocation evicts the token at once on the gateway that handled it, and on every other
 * gateway as soon as the token-revocations event arrives; the time-to-live bounds what a lost
 * event could leave behind. Only answers that let a request through are cached (an unknown token
 * or organization is looked up again), and an organization's owner never changes.
 */
import type { AccountLookups } from './authenticate.usecase';
import type { DeveloperToken, Organization } from './account';

interface Entry<T> {
  value: T;
  until: number;
}

class TtlMap<T> {
  private readonly map = new Map<string, Entry<T>>();
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}
  get(key: string): T | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.until > this.now()) return e.value;
    this.map.delete(key);
    return undefined;
  }
  set(key: string, value: T): void {
    // Map keeps insertion order: the first key is the oldest entry.
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    this.map.set(key, { value, until: this.now() + this.ttlMs });
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

export class AccountCache implements AccountLookups {
  private readonly tokens: TtlMap<DeveloperToken>;
  private readonly organizations: TtlMap<Pick<Organization, '_id' | 'customer_id'>>;

  /** `ttlMs` 0 turns caching off (every request reads the store). */
  constructor(
    private readonly source: AccountLookups,
    private readonly ttlMs: number,
    max = 10_000,
    now: () => number = Date.now,
  ) {
    this.tokens = new TtlMap(ttlMs, max, now);
    this.organizations = new TtlMap(ttlMs, max, now);
  }

  async findToken(hash: string): Promise<DeveloperToken | null> {
    const hit = this.tokens.get(hash);
    if (hit) return hit;
    const found = await this.source.findToken(hash);
    if (found && !found.revoked_at && this.ttlMs > 0) this.tokens.set(hash, found);
    return found;
  }

  async findOrganization(id: string): Promise<Pick<Organization, '_id' | 'customer_id'> | null> {
    const hit = this.organizations.get(id);
    if (hit) return hit;
    const found = await this.source.findOrganization(id);
    if (found && this.ttlMs > 0) this.organizations.set(id, { _id: found._id, customer_id: found.customer_id });
    return found;
  }

  evictToken(hash: string): void {
    this.tokens.delete(hash);
  }
}
