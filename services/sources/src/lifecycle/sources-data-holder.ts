/**
 * The sources service's share of a user's data (docs/data-lifecycle.md): the user's provider connections (state,
 * per-resource history progress; never the sealed provider tokens) and the log of their past
 * disconnections; for an erasure also their sync jobs, the provider-user keys and the projection
 * of the user with its marketplace key. Every query pins the user.
 */
import type { ExportItem, UserDataRequest } from '@wellstream/contracts';
import { deleteInSlices, UserDataHolder } from '@wellstream/runtime';
import type { DocumentStore } from '@wellstream/store';
import type { Connection } from '../connections/connection';
import { CONNECTIONS_SPEC, ConnectionRepository } from '../connections/connection.repository';
import { DISCONNECTIONS_SPEC } from '../connections/disconnection-log';
import { SYNC_JOBS_SPEC } from '../sync/sync-job.repository';
import { MARKETPLACE_KEYS_SPEC, SOURCES_USER_PROJECTION_SPEC } from '../users/user-projection.repository';

export async function sourcesDataHolder(store: DocumentStore, repo: ConnectionRepository): Promise<UserDataHolder> {
  // The same collections the repositories open, declared as they declare them.
  const connections = await store.collection<Connection>(CONNECTIONS_SPEC);
  const disconnections = await store.collection<{ _id: string; user_id: string }>(DISCONNECTIONS_SPEC);
  const jobs = await store.collection<{ _id: string; connection_id: string }>(SYNC_JOBS_SPEC);
  const users = await store.collection<{ _id: string }>(SOURCES_USER_PROJECTION_SPEC);
  const marketplaceKeys = await store.collection<{ _id: string; user_id: string }>(MARKETPLACE_KEYS_SPEC);
  return {
    service: 'sources',
    async *exportPages(request: UserDataRequest): AsyncIterable<ExportItem[]> {
      const mine = await connections.find({ user_id: request.user_id });
      yield mine.map(({ _id, tokens: _sealed, refresh_lock_until: _lock, token_rev: _rev, ...c }) => ({ kind: 'connection', data: { id: _id, ...c } }));
      for await (const page of disconnections.findPages({ user_id: request.user_id }, { sort: { _id: 1 }, pageSize: 200 })) {
        yield page.map(({ _id, ...d }) => ({ kind: 'disconnection', data: { id: _id, ...d } }));
      }
    },
    async erase(request: UserDataRequest): Promise<Record<string, number>> {
      const mine = await connections.find({ user_id: request.user_id });
      let syncJobs = 0;
      for (const c of mine) {
        syncJobs += await jobs.deleteMany({ connection_id: c._id });
        await repo.remove(c);
      }
      return {
        connections: mine.length,
        sync_jobs: syncJobs,
        disconnections: await deleteInSlices(disconnections, { user_id: request.user_id }),
        user_projections: await users.deleteMany({ _id: request.user_id }),
        marketplace_keys: await marketplaceKeys.deleteMany({ user_id: request.user_id }),
      };
    },
  };
}
