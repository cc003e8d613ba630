/**
 * The embedded log's work that touches many rows: compaction, retention, erasure, dropping a
 * tenant's slice and the tenant migration. Each call is one bounded chunk, so the caller can yield
 * to the event loop between them.
 */
import type Database from 'better-sqlite3';
import type { TopicSpec } from './event-log.port';
import type { LogStatements } from './embedded-log-statements';
import { unpackValue } from './log-values';
import { tenantFromValue } from './tenant-field';

/** Rows one chunk of a bulk operation touches; small enough to keep each chunk in a few ms. */
const CHUNK_ROWS = 200;

interface LogTables {
  db: Database.Database;
  stmts: LogStatements;
}

/**
 * One chunk of compaction and retention on one topic: drops messages superseded by a newer one
 * with the same key (compacted topics; only what arrived since the last chunk is looked at, so a
 * pass costs the new messages, not the topic), and messages older than the retention. Offsets
 * keep their gaps, as in Kafka. Returns how many were removed and whether more work is left.
 */
export function cleanChunk({ db, stmts }: LogTables, spec: TopicSpec, now: number): { removed: number; more: boolean } {
  const topic = spec.name;
  let removed = 0;
  let more = false;
  db.transaction(() => {
    if (spec.compacted) {
      const mark = (stmts.compactionMark.get(topic) as { seq: number } | undefined)?.seq ?? 0;
      const fresh = stmts.newSince.all(topic, mark, CHUNK_ROWS) as { seq: number; partition: number; key: string; offset: number }[];
      for (const r of fresh) removed += stmts.dropSuperseded.run(topic, r.partition, r.key, r.offset).changes;
      if (fresh.length > 0) stmts.setCompactionMark.run(topic, fresh[fresh.length - 1].seq);
      more ||= fresh.length === CHUNK_ROWS;
    }
    if (spec.retentionMs) {
      const expired = stmts.expire.run(topic, now - spec.retentionMs, CHUNK_ROWS).changes;
      removed += expired;
      more ||= expired === CHUNK_ROWS;
    }
  })();
  return { removed, more };
}

/**
 * One chunk of an erasure: of the partition's messages after `afterOffset` (at most CHUNK_ROWS,
 * in offset order through the (topic, partition, offset) key), deletes those whose value
 * `matches`. Answers where to go on from (undefined at the partition's end) and how many went.
 */
export function eraseChunk({ db }: LogTables, topic: string, partition: number, afterOffset: number, matches: (value: string) => boolean): { next?: number; erased: number } {
  const rows = db.prepare('SELECT seq, offset, value FROM messages WHERE topic = ? AND partition = ? AND offset > ? ORDER BY offset LIMIT ?').all(topic, partition, afterOffset, CHUNK_ROWS) as {
    seq: number;
    offset: number;
    value: string | Buffer;
  }[];
  const doomed = rows.filter((r) => matches(unpackValue(r.value))).map((r) => r.seq);
  if (doomed.length) {
    const del = db.prepare('DELETE FROM messages WHERE seq = ?');
    db.transaction(() => doomed.forEach((seq) => del.run(seq)))();
  }
  return { next: rows.length === CHUNK_ROWS ? rows[rows.length - 1].offset : undefined, erased: doomed.length };
}

/** One chunk of removing a tenant's slice; returns how many messages went. */
export function dropTenantChunk({ stmts }: LogTables, topic: string, tenant: string): number {
  return stmts.dropTenant.run(topic, tenant, CHUNK_ROWS).changes;
}

/**
 * One chunk of the tenant migration: messages of a tenant-scoped topic stored before slices
 * existed get their tenant from the spec's field. A value without that field can never join a
 * slice; it gets the empty tenant (no reader asks for it) so the migration never sees it again.
 */
export function migrateTenantChunk({ db, stmts }: LogTables, spec: TopicSpec): number {
  const field = spec.tenants?.field;
  if (!field) return 0;
  const rows = stmts.untagged.all(spec.name, CHUNK_ROWS) as { seq: number; value: string | Buffer }[];
  db.transaction(() => {
    for (const r of rows) stmts.setTenant.run(tenantFromValue(unpackValue(r.value), field) ?? '', r.seq);
  })();
  return rows.length;
}
