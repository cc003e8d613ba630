/**
 * The tables of the embedded log's SQLite file: topics, messages, each partition's next offset,
 * each group's committed positions and each compacted topic's progress. Opened like every embedded
 * SQLite file (libs/sqlite: WAL, NORMAL sync, checkpoints off the event loop).
 */
import type Database from 'better-sqlite3';
import { openSqlite } from '@wellstream/sqlite';

/** Opens (or creates) the log file with every table and index in place. */
export function openLogDatabase(file: string): Database.Database {
  const db = openSqlite(file);
  db.exec(`
    CREATE TABLE IF NOT EXISTS topics (name TEXT PRIMARY KEY, spec TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
      key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT NOT NULL, ts INTEGER NOT NULL,
      UNIQUE (topic, partition, offset));
    CREATE TABLE IF NOT EXISTS partition_ends (
      topic TEXT NOT NULL, partition INTEGER NOT NULL, next_offset INTEGER NOT NULL, PRIMARY KEY (topic, partition));
    CREATE TABLE IF NOT EXISTS group_offsets (
      group_id TEXT NOT NULL, topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
      PRIMARY KEY (group_id, topic, partition));
    CREATE TABLE IF NOT EXISTS compaction_marks (topic TEXT PRIMARY KEY, seq INTEGER NOT NULL);
  `);
  // Logs written before tenant slices existed gain the column; migrateTenantChunk fills it.
  const columns = db.prepare('PRAGMA table_info(messages)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'tenant')) db.exec('ALTER TABLE messages ADD COLUMN tenant TEXT');
  db.exec(`
    CREATE INDEX IF NOT EXISTS messages_key ON messages (topic, partition, key, offset);
    CREATE INDEX IF NOT EXISTS messages_ts ON messages (topic, ts);
    CREATE INDEX IF NOT EXISTS messages_tenant_offset ON messages (topic, tenant, partition, offset);
    CREATE INDEX IF NOT EXISTS messages_tenant_seq ON messages (topic, tenant, seq);
  `);
  return db;
}
