/**
 * The user projection and its key documents (`_id` = sha256 of the marketplace token, or `mob:` and
 * the sha256 of the mobile token → user id), so a marketplace request or the phone app's connect is
 * one keyed read. A refreshed or rotated token moves its key.
 */
import { createHash } from 'node:crypto';
import type { Collection, CollectionSpec, DocumentStore } from '@wellstream/store';
import type { ProjectedUser } from './user-projection';

interface MarketplaceKey {
  _id: string;
  user_id: string;
}

/** As every opener declares them: both read by id; a user's marketplace keys are erased by user. */
export const SOURCES_USER_PROJECTION_SPEC: CollectionSpec = { name: 'user_projection' };
export const MARKETPLACE_KEYS_SPEC: CollectionSpec = { name: 'marketplace_keys', indexes: [{ fields: { user_id: 1 } }] };

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const mobileKey = (sha256: string) => `mob:${sha256}`;

export class UserProjectionRepository {
  private constructor(
    private readonly users: Collection<ProjectedUser>,
    private readonly keys: Collection<MarketplaceKey>,
  ) {}

  static async open(store: DocumentStore): Promise<UserProjectionRepository> {
    return new UserProjectionRepository(await store.collection<ProjectedUser>(SOURCES_USER_PROJECTION_SPEC), await store.collection<MarketplaceKey>(MARKETPLACE_KEYS_SPEC));
  }

  byId(id: string): Promise<ProjectedUser | null> {
    return this.users.findOne({ _id: id });
  }

  async byMarketplaceToken(token: string): Promise<ProjectedUser | null> {
    const key = await this.keys.findOne({ _id: tokenHash(token) });
    return key ? this.byId(key.user_id) : null;
  }

  async byMobileToken(token: string): Promise<ProjectedUser | null> {
    const key = await this.keys.findOne({ _id: mobileKey(tokenHash(token)) });
    return key ? this.byId(key.user_id) : null;
  }

  /** Keeps the newest snapshot (by updated_at); older or equal ones change nothing. */
  async apply(next: ProjectedUser): Promise<{ previous: ProjectedUser | null; applied: boolean }> {
    const previous = await this.byId(next._id);
    if (previous && previous.updated_at > next.updated_at) return { previous, applied: false };
    await this.users.bulkUpsert([next]);
    if (previous?.marketplace_token_sha256 && previous.marketplace_token_sha256 !== next.marketplace_token_sha256) await this.keys.deleteMany({ _id: previous.marketplace_token_sha256 });
    if (next.marketplace_token_sha256 && next.status !== 'deleted') await this.keys.bulkUpsert([{ _id: next.marketplace_token_sha256, user_id: next._id }]);
    if (next.status === 'deleted' && next.marketplace_token_sha256) await this.keys.deleteMany({ _id: next.marketplace_token_sha256 });
    const mobile = next.mobile_token_sha256 ?? null;
    if (previous?.mobile_token_sha256 && (previous.mobile_token_sha256 !== mobile || next.status === 'deleted')) await this.keys.deleteMany({ _id: mobileKey(previous.mobile_token_sha256) });
    if (mobile && next.status !== 'deleted') await this.keys.bulkUpsert([{ _id: mobileKey(mobile), user_id: next._id }]);
    return { previous, applied: true };
  }
}
