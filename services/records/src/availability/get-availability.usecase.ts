/**
 * GET /organizations/:org_id/users/:uid/availability: per source the user has connected (or holds
 * data of), per resource, what data is held (first and last record time, how many records, when
 * the last arrived), whether the catalog expects that source to deliver that resource at all, and
 * for provider sources the connection's status, last successful sync and backfill. Which sources are
 * connected comes from `source-connections` (projected here), every kind. Every read is by primary key.
 */
import { RESOURCE_TYPES, SOURCES, sourceDefinition } from '@wellstream/catalog';
import type { AvailabilityStatsDoc, RecordKeysRepository } from '../records/record-keys.repository';
import { statsIdOf } from '../records/record-keys.repository';
import { userNotFound } from '../records/record.errors';
import type { UserProjectionRepository } from '../users/user-projection.repository';
import { connectionIdOf, SourceConnectionDoc, SourceConnectionProjection } from './source-connection-projection';

export interface AvailabilityDeps {
  users: UserProjectionRepository;
  keys: RecordKeysRepository;
  connections: SourceConnectionProjection;
}

export interface ResourceAvailability {
  resource: string;
  /** The catalog lists this resource for this source. */
  expected: boolean;
  first_time: string | null;
  last_time: string | null;
  records: number;
  last_received_at: string | null;
  /** Provider sources: how far fetching this resource's history has got; null for sources that post. */
  backfill: { state: 'running' | 'done'; start: string | null; end: string | null } | null;
}

export interface SourceAvailability {
  type: string;
  name: string;
  kind: string;
  connected: boolean;
  /** Provider sources: active, auth_expired, error or disconnected; sources that post: active while connected. */
  status: string | null;
  connected_at: string | null;
  /** Provider sources: the last successful sync; sources that post: when new data last arrived. */
  last_synced_at: string | null;
  backfill: { state: 'running' | 'done'; progress: number; start: string; end: string } | null;
  reason: string | null;
  resources: ResourceAvailability[];
}

export async function getAvailability(deps: AvailabilityDeps, req: { customerId: string; organizationId: string; uid: string }) {
  const user = await deps.users.byUid(req.organizationId, req.uid);
  if (!user || user.customer_id !== req.customerId || user.status === 'deleted') throw userNotFound(req.uid);
  const types = SOURCES.map((s) => s.type);
  const [keys, connections] = await Promise.all([
    deps.keys.byIds(user._id, types.flatMap((t) => RESOURCE_TYPES.map((r) => statsIdOf(user._id, t, r)))),
    deps.connections.byIds(types.map((t) => connectionIdOf(user._id, t))),
  ]);
  const stats = [...keys.values()].filter((k): k is AvailabilityStatsDoc => k.kind === 'stats');
  const connectionOf = new Map<string, SourceConnectionDoc>(connections.map((c) => [c.source_type, c]));
  // Connected as the sources service last announced it (records' copy, which a connect answered
  // there waits for): not the users service's snapshot, a hop further from the owner.
  const connectedNow = (type: string) => {
    const c = connectionOf.get(type);
    return c !== undefined && c.status !== 'disconnected';
  };
  const posts = (s: { kind: string }) => s.kind !== 'cloud';
  const listed = SOURCES.filter((s) => connectedNow(s.type) || (!posts(s) && connectionOf.has(s.type)) || stats.some((x) => x.source_type === s.type));
  const sources: SourceAvailability[] = listed.map((s) => {
    // A source that posts (phone apps, demo) has no sync, backfill or failure of its own: only whether it is connected.
    const conn = posts(s) ? undefined : connectionOf.get(s.type);
    const connected = connectedNow(s.type);
    const mine = stats.filter((x) => x.source_type === s.type);
    const resources = RESOURCE_TYPES.filter((r) => s.resources.includes(r) || mine.some((x) => x.resource === r)).map((r): ResourceAvailability => {
      const st = mine.find((x) => x.resource === r);
      return {
        resource: r,
        expected: sourceDefinition(s.type)?.resources.includes(r) ?? false,
        first_time: st?.first_time ?? null,
        last_time: st?.last_time ?? null,
        records: st?.records ?? 0,
        last_received_at: st?.last_received_at ?? null,
        backfill: backfillOf(conn, r),
      };
    });
    const lastReceived = mine.reduce<string | null>((max, x) => (max === null || x.last_received_at > max ? x.last_received_at : max), null);
    return {
      type: s.type,
      name: s.name,
      kind: s.kind,
      connected,
      status: conn ? conn.status : connected ? 'active' : null,
      connected_at: conn?.connected_at ?? null,
      last_synced_at: conn ? conn.last_synced_at : lastReceived,
      backfill: conn?.backfill ? { ...conn.backfill } : null,
      reason: conn?.reason ?? null,
      resources,
    };
  });
  return { user: { uid: user.uid, user_id: user._id }, sources };
}

function backfillOf(conn: SourceConnectionDoc | undefined, resource: string): ResourceAvailability['backfill'] {
  if (!conn) return null;
  const done = conn.backfilled[resource];
  if (done) return { state: 'done', start: done.start, end: done.end };
  if (!conn.backfill) return null;
  // The sources service reports the backfill of all resources together, and completion per resource.
  return { state: conn.backfill.state, start: conn.backfill.start, end: conn.backfill.end };
}
