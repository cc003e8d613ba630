/**
 * What records knows about users: a projection of the users service's snapshots (userEventsTopic),
 * enough to authenticate the mobile token, find (organization, uid), compute offsets and know
 * which sources are connected. `detected_sources` is records' own memory of the source detections
 * it already announced, so a busy source does not flood the detections topic.
 */
import type { UserSnapshot } from '@wellstream/contracts';
import type { RecordUser } from '../records/record';

export interface ProjectedUser
  extends Pick<UserSnapshot, 'uid' | 'organization_id' | 'customer_id' | 'status' | 'timezone' | 'timezone_origin' | 'mobile_token' | 'updated_at'> {
  _id: string;
  /** Connected source types. */
  sources: string[];
  detected_sources: string[];
}

export const recordUserOf = (u: ProjectedUser): RecordUser => ({ uid: u.uid, user_id: u._id, organization_id: u.organization_id });

export const hasSource = (u: ProjectedUser, sourceType: string) => u.sources.includes(sourceType) || u.detected_sources.includes(sourceType);

export function projectionFields(s: UserSnapshot): Omit<ProjectedUser, '_id' | 'detected_sources'> {
  return {
    uid: s.uid,
    organization_id: s.organization_id,
    customer_id: s.customer_id,
    status: s.deleted_at ? 'deleted' : s.status,
    timezone: s.timezone,
    timezone_origin: s.timezone_origin,
    mobile_token: s.mobile_token,
    sources: s.sources.map((x) => x.type),
    updated_at: s.updated_at,
  };
}

/**
 * Reads tolerate documents written by older versions (or by hand): the lists default to empty,
 * so a missing field is "nothing connected or detected yet", never a crash.
 */
export function withDefaults(u: ProjectedUser | null): ProjectedUser | null {
  if (!u) return null;
  return { ...u, sources: Array.isArray(u.sources) ? u.sources : [], detected_sources: Array.isArray(u.detected_sources) ? u.detected_sources : [] };
}
