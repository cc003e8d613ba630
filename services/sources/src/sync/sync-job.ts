/**
 * Sync work waiting to run, one document per (connection, kind): the revoke of an ended
 * connection comes first, then live fetches asked for by a notification, then polls, then
 * backfill; each backfill run fetches one page and puts itself back, so a long history never holds
 * up today's data (the provider budget orders the same way: rate-limited-http.ts). `rev` lets a
 * notification that arrives while its job runs extend the job instead of being lost when the run
 * deletes it.
 */
export type SyncKind = 'revoke' | 'live' | 'poll' | 'backfill';

export const PRIORITY: Record<SyncKind, number> = { revoke: -1, live: 0, poll: 1, backfill: 2 };

/** What a revoke needs once its connection (and the tokens in it) is gone. */
export interface PendingRevoke {
  source_type: string;
  user_id: string;
  /** The ended connection's TokenSet, sealed by the vault as the connection held it. */
  tokens: string;
  /** When the connection ended (a revoke still failing a week later is given up, logged). */
  since: string;
}

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
   * live: objects named while the job ran (leased): the run in progress did not see them, so they
   * become the next run's `objects` and what the run fetched is not fetched again.
   */
  objects_next?: Record<string, string[]>;
  /**
   * live: an unsigned notification says the user withdrew our access; the connection ends only
   * once the provider refuses the user's own token (confirm-access-ended.ts).
   */
  access_check?: { reason: string };
  /** live: the user changed their permissions at the provider; ask it which are missing now (follow-permissions.ts). */
  permissions_check?: boolean;
  /** revoke: the ended connection's provider and tokens. */
  revoke?: PendingRevoke;
}

/** What a live job carries besides windows. */
export type LiveWork = Pick<SyncJob, 'objects' | 'access_check' | 'permissions_check'>;

export const jobId = (connectionId: string, kind: SyncKind) => `${connectionId}:${kind}`;
export const EPOCH = '1970-01-01T00:00:00.000Z';

/** 5 s, 10 s, 20 s … up to 15 minutes, with jitter so replicas do not retry in step. */
export const backoffMs = (attempts: number): number => Math.min(15 * 60_000, 5000 * 2 ** Math.min(attempts, 10)) * (0.75 + Math.random() * 0.5);
