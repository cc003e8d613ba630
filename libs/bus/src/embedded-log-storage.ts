/**
 * The embedded log's storage: one SQLite file holds every topic's messages and every group's
 * committed positions. WAL mode with NORMAL sync keeps appends fast and durable across a
 * process crash (the OS keeps what the process wrote).
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { LogMessage, OutgoingMessage, TopicSpec } from './event-log.port';
import { partitionFor } from './partitioner';

interface Row {
  seq: number;
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: string;
  headers: string;
  ts: number;
}

const toMessage = (r: Row): LogMessage => ({
  topic: r.topic,
  partition: r.partition,
  offset: r.offset,
  key: r.key,
  value: r.value,
  headers: JSON.parse(r.headers) as Record<string, string>,
  timestamp: r.ts,
});

export interface SeqMessage extends LogMessage {
  seq: number;
}

export class EmbeddedLogStorage {
  private readonly db: Database.Database;
  private readonly topics = new Map<string, TopicSpec>();
  private readonly nextOffset = new Map<string, number>();
  private readonly stmts;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS topics (name TEXT PRIMARY KEY, spec TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
        key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT NOT NULL, ts INTEGER NOT NULL,
        UNIQUE (topic, partition, offset));
      CREATE INDEX IF NOT EXISTS messages_key ON messages (topic, partition, key, offset);
      CREATE INDEX IF NOT EXISTS messages_ts ON messages (topic, ts);
      CREATE TABLE IF NOT EXISTS partition_ends (
        topic TEXT NOT NULL, partition INTEGER NOT NULL, next_offset INTEGER NOT NULL, PRIMARY KEY (topic, partition));
      CREATE TABLE IF NOT EXISTS group_offsets (
        group_id TEXT NOT NULL, topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
        PRIMARY KEY (group_id, topic, partition));
    `);
    this.stmts = {
      insert: this.db.prepare(
        'INSERT INTO messages (topic, partition, offset, key, value, headers, ts) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      readPartition: this.db.prepare(
        'SELECT * FROM messages WHERE topic = ? AND partition = ? AND offset >= ? ORDER BY offset LIMIT ?',
      ),
      readSeq: this.db.prepare('SELECT * FROM messages WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?'),
      firstSeqAt: this.db.prepare('SELECT MIN(seq) AS seq FROM messages WHERE topic = ? AND ts >= ?'),
      maxSeq: this.db.prepare('SELECT MAX(seq) AS seq FROM messages WHERE topic = ?'),
      getCommit: this.db.prepare('SELECT offset FROM group_offsets WHERE group_id = ? AND topic = ? AND partition = ?'),
      setEnd: this.db.prepare(
        `INSERT INTO partition_ends (topic, partition, next_offset) VALUES (?, ?, ?)
         ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset`,
      ),
      setCommit: this.db.prepare(
        `INSERT INTO group_offsets (group_id, topic, partition, offset) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET offset = excluded.offset`,
      ),
    };
    for (const r of this.db.prepare('SELECT spec FROM topics').all() as { spec: string }[]) {
      const spec = JSON.parse(r.spec) as TopicSpec;
      this.topics.set(spec.name, spec);
    }
    // Kept in a table, not derived from the messages: retention may have deleted them all, and
    // offsets must never be reused (committed positions point past them).
    for (const r of this.db.prepare('SELECT topic, partition, next_offset FROM partition_ends').all() as {
      topic: string;
      partition: number;
      next_offset: number;
    }[]) {
      this.nextOffset.set(`${r.topic}/${r.partition}`, r.next_offset);
    }
  }

  ensureTopic(spec: TopicSpec): void {
    const existing = this.topics.get(spec.name);
    // Like Kafka, the partition count of an existing topic never shrinks (keys would move).
    const merged = existing ? { ...spec, partitions: Math.max(existing.partitions, spec.partitions) } : spec;
    this.db.prepare('INSERT OR REPLACE INTO topics (name, spec) VALUES (?, ?)').run(spec.name, JSON.stringify(merged));
    this.topics.set(spec.name, merged);
  }

  topic(name: string): TopicSpec {
    const spec = this.topics.get(name);
    if (!spec) throw new Error(`unknown topic ${name}: call ensureTopic first`);
    return spec;
  }

  /** Appends atomically: either every message of the call is stored or none. Returns the partitions written. */
  append(topicName: string, messages: OutgoingMessage[], now = Date.now()): Set<number> {
    const spec = this.topic(topicName);
    const touched = new Set<number>();
    this.db.transaction(() => {
      for (const m of messages) {
        const partition = partitionFor(m.partitionKey ?? m.key, spec.partitions);
        const k = `${topicName}/${partition}`;
        const offset = this.nextOffset.get(k) ?? 0;
        this.stmts.insert.run(topicName, partition, offset, m.key, m.value, JSON.stringify(m.headers ?? {}), now);
        this.nextOffset.set(k, offset + 1);
        this.stmts.setEnd.run(topicName, partition, offset + 1);
        touched.add(partition);
      }
    })();
    return touched;
  }

  readPartition(topic: string, partition: number, fromOffset: number, limit: number): LogMessage[] {
    return (this.stmts.readPartition.all(topic, partition, fromOffset, limit) as Row[]).map(toMessage);
  }

  readAfterSeq(topic: string, afterSeq: number, limit: number): SeqMessage[] {
    return (this.stmts.readSeq.all(topic, afterSeq, limit) as Row[]).map((r) => ({ ...toMessage(r), seq: r.seq }));
  }

  /** The seq just before the first message at or after `ts` (so reading "after" it starts there). */
  seqBefore(topic: string, ts: number): number {
    const r = this.stmts.firstSeqAt.get(topic, ts) as { seq: number | null };
    if (r.seq !== null) return r.seq - 1;
    return this.maxSeq(topic);
  }

  maxSeq(topic: string): number {
    return (this.stmts.maxSeq.get(topic) as { seq: number | null }).seq ?? 0;
  }

  endOffset(topic: string, partition: number): number {
    return this.nextOffset.get(`${topic}/${partition}`) ?? 0;
  }

  committed(groupId: string, topic: string, partition: number): number | undefined {
    return (this.stmts.getCommit.get(groupId, topic, partition) as { offset: number } | undefined)?.offset;
  }

  commit(groupId: string, topic: string, partition: number, nextOffset: number): void {
    this.stmts.setCommit.run(groupId, topic, partition, nextOffset);
  }

  /**
   * Compaction and retention: drop messages superseded by a newer one with the same key (compacted
   * topics), and messages older than the topic's retention. Offsets keep their gaps, as in Kafka.
   */
  clean(now = Date.now()): number {
    let removed = 0;
    for (const spec of this.topics.values()) {
      if (spec.compacted) {
        removed += this.db
          .prepare(
            `DELETE FROM messages WHERE topic = ? AND EXISTS (
               SELECT 1 FROM messages n WHERE n.topic = messages.topic AND n.partition = messages.partition
                 AND n.key = messages.key AND n.offset > messages.offset)`,
          )
          .run(spec.name).changes;
      }
      if (spec.retentionMs) {
        removed += this.db.prepare('DELETE FROM messages WHERE topic = ? AND ts < ?').run(spec.name, now - spec.retentionMs).changes;
      }
    }
    return removed;
  }

  close(): void {
    this.db.close();
  }
}
