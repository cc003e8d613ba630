/**
 * Sync work waiting to run, one document per (connection, kind): live fetches asked for by a
 * notification come first, then polls, then backfill; each backfill run does one chunk and puts
 * itself back, so a long history never holds up today's data. `rev` lets a notification that
 * arrives while its job runs extend the job instead of being lost when the run deletes it.
 */
export type SyncKind = 'live' | 'poll' | 'backfill';

export const PRIORITY: Record<SyncKind, number> = { live: 0, poll: 1, backfill: 2 };

export interface SyncJob {
  _id: string;
  connection_id: string;
  kind: SyncKind;
  priority: number;
  due_at: string;
  lease_until: string;
  rev: number;
  attempts: number;
  /** live: what to fetch, resource → window. */
  windows?: Record<string, { start: string; end: string }>;
  /** live: the objects notifications named, resource → provider ids, each fetched by itself. */
  objects?: Record<string, string[]>;
  /**
   * live: an unsigned notification says the user withdrew our access; the connection ends only
   * once the provider refuses the user's own token (confirm-access-ended.ts).
   */
  access_check?: { reason: string };
}

/** What a live job carries besides windows. */
export type LiveWork = Pick<SyncJob, 'objects' | 'access_check'>;

export const jobId = (connectionId: string, kind: SyncKind) => `${connectionId}:${kind}`;
export const EPOCH = '1970-01-01T00:00:00.000Z';
