/**
 * What records knows about users: a projection of the users service's snapshots (userEventsTopic),
 * enough to authenticate the mobile token, find (organization, uid) and compute offsets. Which
 * sources a user has is not taken from here: availability learns it from the sources service,
 * which owns it (`source-connections`, availability/source-connection-projection.ts), one hop from
 * the owner instead of two (sources → users → here), and a connect's answer waits for that copy;
 * ingestion reports a source by its first record (its own availability stats).
 */
import type { UserSnapshot } from '@wellstream/contracts';
import type { RecordUser } from '../records/record';

export interface ProjectedUser
  extends Pick<UserSnapshot, 'uid' | 'organization_id' | 'customer_id' | 'status' | 'timezone' | 'timezone_origin' | 'mobile_token' | 'updated_at'> {
  _id: string;
}

export const recordUserOf = (u: ProjectedUser): RecordUser => ({ uid: u.uid, user_id: u._id, organization_id: u.organization_id });

export function projectionFields(s: UserSnapshot): Omit<ProjectedUser, '_id'> {
  return {
    uid: s.uid,
    organization_id: s.organization_id,
    customer_id: s.customer_id,
    status: s.deleted_at ? 'deleted' : s.status,
    timezone: s.timezone,
    timezone_origin: s.timezone_origin,
    mobile_token: s.mobile_token,
    updated_at: s.updated_at,
  };
}

/**
 * Documents written by older versions may still hold `sources` and `detected_sources` (what this
 * service once kept of a user's sources): they are left out, so nothing reads them.
 */
export function withDefaults(u: (ProjectedUser & { sources?: unknown; detected_sources?: unknown }) | null): ProjectedUser | null {
  if (!u) return null;
  const { sources: _sources, detected_sources: _detected, ...user } = u;
  return user;
}
