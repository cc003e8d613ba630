/**
 * The response shapes of the user endpoints, exactly the fields the OpenAPI document lists for each.
 */
import type { User } from './user';

type UrlOf = (token: string) => string;

const marketplace = (u: User, url: UrlOf) => ({ token: u.marketplace_token, url: url(u.marketplace_token) });
const location = (u: User) => ({ timezone: u.timezone, country_code: u.country_code });
/** Provider sources carry their connection's health; phone sources their last upload (`last_synced_at`) and what it brought; the demo source is always active. */
const sources = (u: User) =>
  u.sources.map((s) => ({
    type: s.type,
    connected_at: s.connected_at,
    status: s.status ?? 'active',
    last_synced_at: s.last_synced_at ?? null,
    backfill: s.backfill ? { state: s.backfill.state, progress: s.backfill.progress, start: s.backfill.start, end: s.backfill.end } : null,
    ...(s.missing_permissions?.length ? { missing_permissions: [...s.missing_permissions] } : {}),
    ...(s.uploaded ? { uploaded: { resources: [...s.uploaded.resources], last_record_at: s.uploaded.last_record_at } } : {}),
  }));

/** Create and PUT responses. */
export const userView = (u: User, url: UrlOf) => ({
  id: u.id,
  uid: u.uid,
  marketplace: marketplace(u, url),
  location: location(u),
  sources: sources(u),
  created_at: u.created_at,
  updated_at: u.updated_at,
});

/** GET user: the same as create/put, plus `mobile`. */
export const userDetailView = (u: User, url: UrlOf) => ({ ...userView(u, url), mobile: { token: u.mobile_token } });

/** User list items: no `sources`; `mobile` and `status` instead. */
export const userListItemView = (u: User, url: UrlOf) => ({
  id: u.id,
  uid: u.uid,
  marketplace: marketplace(u, url),
  mobile: { token: u.mobile_token },
  location: location(u),
  status: u.status,
  created_at: u.created_at,
  updated_at: u.updated_at,
});

/** DELETE response: the user fields plus `deleted_at`. */
export const deletedUserView = (u: User, url: UrlOf) => ({ ...userView(u, url), deleted_at: u.deleted_at });

/** Operator suspend/unsuspend responses: the get-user shape plus `status`. */
export const adminUserView = (u: User, url: UrlOf) => ({ ...userDetailView(u, url), status: u.status });
