/**
 * A user's connection to one provider, as the sources service stores it: who, the sealed tokens,
 * its health, and per resource how far history (backfill) and live sync have got. One document
 * per (user, source type), `_id` = `<user id>:<type>`.
 */
import type { BackfillProgress, PhoneUploads, SourceConnectionStatus } from '@wellstream/contracts';

export interface ResourceProgress {
  /** The backfill window asked for this resource: [start, end). */
  backfill_start: string;
  backfill_end: string;
  /** Backfill has fetched [backfill_start, backfill_done_until). Equal to backfill_end when done. */
  backfill_done_until: string;
  /** A page cursor inside the current backfill chunk, when the provider paginates it. */
  backfill_cursor?: string | null;
  /** Live sync has fetched everything up to here (polls ask again from a little before it). */
  synced_until: string | null;
}

export interface Connection {
  _id: string;
  user_id: string;
  organization_id: string;
  source_type: string;
  status: SourceConnectionStatus;
  provider_user_id: string | null;
  /** The data scopes the user refused at consent (the provider's names); absent when none was. */
  missing_permissions?: string[];
  /** A phone source: what the app's uploads brought since it was connected (`last_synced_at` is the last upload). */
  uploaded?: PhoneUploads;
  /** TokenSet as JSON, sealed by the vault (AES-256-GCM). */
  tokens: string;
  token_expires_at: string;
  /** Bumped by every token write: a replica waiting on another's refresh sees it land. */
  token_rev: number;
  /** A refresh in progress somewhere holds this until it finishes (one refresh at a time). */
  refresh_lock_until: string;
  connected_at: string;
  last_synced_at: string | null;
  last_error: string | null;
  /** Failed syncs in a row; the connection shows `error` from 3 until one succeeds. */
  failures: number;
  resources: Record<string, ResourceProgress>;
  /** Bumped by every write that publishes records (the outbox's state check). */
  sync_seq: number;
  /**
   * A connection made at once (the demo source, a phone app): the write that stored it, which its
   * `connected` announcement is confirmed by, so of two connects at the same moment only the one
   * that stored it announces it.
   */
  created_by?: string;
  /** When a `synced` event last went out (they are sent at most once a minute). */
  last_announced_at: string | null;
  updated_at: string;
}

export const connectionId = (userId: string, type: string) => `${userId}:${type}`;

/** All resources together: how much of the asked history is in. */
export function backfillProgress(c: Pick<Connection, 'resources'>): BackfillProgress | null {
  const all = Object.values(c.resources);
  if (all.length === 0) return null;
  const span = (a: string, b: string) => Math.max(0, Date.parse(b) - Date.parse(a));
  const asked = all.reduce((s, r) => s + span(r.backfill_start, r.backfill_end), 0);
  const done = all.reduce((s, r) => s + span(r.backfill_start, r.backfill_done_until), 0);
  const start = all.map((r) => r.backfill_start).sort()[0];
  const end = all.map((r) => r.backfill_end).sort().reverse()[0];
  const finished = all.every((r) => r.backfill_done_until >= r.backfill_end);
  return { state: finished ? 'done' : 'running', progress: asked === 0 ? 1 : Math.min(1, Math.round((done / asked) * 1000) / 1000), start, end };
}
