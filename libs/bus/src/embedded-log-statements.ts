/**
 * The prepared statements of the embedded log, prepared once per file. A tenant-scoped topic stores
 * each message once, with its tenant in a column; a tenant's slice is read through indexes that
 * lead with the tenant, so reading it costs that tenant's messages only.
 */
import type Database from 'better-sqlite3';

/**
 * The reads of a tenant's slice: each must be served by an index that leads with (topic, tenant), so
 * its cost follows that tenant's messages (a test checks every plan).
 */
export const TENANT_READS = {
  partition: 'SELECT * FROM messages WHERE topic = ? AND tenant = ? AND partition = ? AND offset >= ? ORDER BY offset LIMIT ?',
  afterSeq: 'SELECT * FROM messages WHERE topic = ? AND tenant = ? AND seq > ? ORDER BY seq LIMIT ?',
  // Walks the slice in seq order from its oldest message (retention keeps that short). Pinned: left
  // alone, SQLite picks the (topic, ts) index and scans every tenant's messages.
  firstSeqAt: 'SELECT seq FROM messages INDEXED BY messages_tenant_seq WHERE topic = ? AND tenant = ? AND ts >= ? ORDER BY seq LIMIT 1',
  maxSeq: 'SELECT MAX(seq) AS seq FROM messages WHERE topic = ? AND tenant = ?',
  drop: 'DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE topic = ? AND tenant = ? LIMIT ?)',
};

const STATEMENTS = {
  insert: 'INSERT INTO messages (topic, partition, offset, key, value, headers, ts, tenant) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  readPartition: 'SELECT * FROM messages WHERE topic = ? AND partition = ? AND offset >= ? ORDER BY offset LIMIT ?',
  readSeq: 'SELECT * FROM messages WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?',
  firstSeqAt: 'SELECT MIN(seq) AS seq FROM messages WHERE topic = ? AND ts >= ?',
  maxSeq: 'SELECT MAX(seq) AS seq FROM messages WHERE topic = ?',
  readTenantPartition: TENANT_READS.partition,
  readTenantSeq: TENANT_READS.afterSeq,
  firstTenantSeqAt: TENANT_READS.firstSeqAt,
  maxTenantSeq: TENANT_READS.maxSeq,
  firstOffset: 'SELECT MIN(offset) AS offset FROM messages WHERE topic = ? AND partition = ?',
  getCommit: 'SELECT offset FROM group_offsets WHERE group_id = ? AND topic = ? AND partition = ?',
  setEnd: `INSERT INTO partition_ends (topic, partition, next_offset) VALUES (?, ?, ?)
     ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset`,
  setCommit: `INSERT INTO group_offsets (group_id, topic, partition, offset) VALUES (?, ?, ?, ?)
     ON CONFLICT (group_id, topic, partition) DO UPDATE SET offset = excluded.offset`,
  compactionMark: 'SELECT seq FROM compaction_marks WHERE topic = ?',
  setCompactionMark: 'INSERT INTO compaction_marks (topic, seq) VALUES (?, ?) ON CONFLICT (topic) DO UPDATE SET seq = excluded.seq',
  newSince: 'SELECT seq, partition, key, offset FROM messages WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?',
  dropSuperseded: 'DELETE FROM messages WHERE topic = ? AND partition = ? AND key = ? AND offset < ?',
  expire: 'DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE topic = ? AND ts < ? LIMIT ?)',
  dropTenant: TENANT_READS.drop,
  untagged: 'SELECT seq, value FROM messages WHERE topic = ? AND tenant IS NULL ORDER BY seq LIMIT ?',
  setTenant: 'UPDATE messages SET tenant = ? WHERE seq = ?',
};

export type LogStatements = { [K in keyof typeof STATEMENTS]: Database.Statement };

export function prepareLogStatements(db: Database.Database): LogStatements {
  return Object.fromEntries(Object.entries(STATEMENTS).map(([name, sql]) => [name, db.prepare(sql)])) as LogStatements;
}
