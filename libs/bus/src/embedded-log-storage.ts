/**
 * The embedded log's storage: one SQLite file holds every topic's messages and every group's
 * committed positions, opened like every embedded SQLite file (libs/sqlite: WAL, NORMAL sync,
 * checkpoints off the event loop).
 *
 * A tenant-scoped topic stores each message once, with its tenant in a column; a tenant's slice is
 * read through indexes that lead with the tenant, so reading it costs that tenant's messages only.
 * A slice keeps the topic's partitions and offsets (offsets within a slice have gaps, as after
 * compaction), so a position in a slice is also a position in the topic.
 *
 * Everything that touches many rows (compaction, retention, dropping or migrating a tenant) works
 * in bounded chunks so the caller can yield to the event loop between them.
 */
import type Database from 'better-sqlite3';
import { closeSqlite, openSqlite } from '@wellstream/sqlite';
import type { LogMessage, OutgoingMessage, TopicSpec } from './event-log.port';
import { backgroundZlib } from './background-zlib';
import { packValue, unpackValue } from './log-values';
import { partitionFor } from './partitioner';
import { tenantFromValue } from './tenant-field';

interface Row {
  seq: number;
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: string | Buffer;
  headers: string;
  ts: number;
  tenant: string | null;
}

const toMessage = (r: Row, value: string): LogMessage => ({
  topic: r.topic,
  partition: r.partition,
  offset: r.offset,
  key: r.key,
  value,
  headers: JSON.parse(r.headers) as Record<string, string>,
  timestamp: r.ts,
  ...(r.tenant ? { tenant: r.tenant } : {}),
});

export interface SeqMessage extends LogMessage {
  seq: number;
}

/** Where an append landed: readers of these partitions (and of these tenants' slices) need waking. */
export interface AppendedTo {
  partition: number;
  tenant?: string;
}

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

/** Rows one chunk of a bulk operation touches; small enough to keep each chunk in a few ms. */
export const CHUNK_ROWS = 200;

export class EmbeddedLogStorage {
  private readonly db: Database.Database;
  private readonly topics = new Map<string, TopicSpec>();
  private readonly nextOffset = new Map<string, number>();
  private readonly stmts;
  /** Counts changes to the messages, so a remembered read knows it is still what the table holds. */
  private writes = 0;
  private lastRead: { key: string; writes: number; messages: Promise<readonly LogMessage[]> } | undefined;

  constructor(file: string) {
    this.db = openSqlite(file);
    this.db.exec(`
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
    // Logs written before tenant slices existed gain the column; migrateTenants fills it.
    const columns = this.db.prepare('PRAGMA table_info(messages)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'tenant')) this.db.exec('ALTER TABLE messages ADD COLUMN tenant TEXT');
    this.db.exec(`
      CREATE INDEX IF NOT EXISTS messages_key ON messages (topic, partition, key, offset);
      CREATE INDEX IF NOT EXISTS messages_ts ON messages (topic, ts);
      CREATE INDEX IF NOT EXISTS messages_tenant_offset ON messages (topic, tenant, partition, offset);
      CREATE INDEX IF NOT EXISTS messages_tenant_seq ON messages (topic, tenant, seq);
    `);
    this.stmts = {
      insert: this.db.prepare(
        'INSERT INTO messages (topic, partition, offset, key, value, headers, ts, tenant) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      readPartition: this.db.prepare(
        'SELECT * FROM messages WHERE topic = ? AND partition = ? AND offset >= ? ORDER BY offset LIMIT ?',
      ),
      readSeq: this.db.prepare('SELECT * FROM messages WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?'),
      firstSeqAt: this.db.prepare('SELECT MIN(seq) AS seq FROM messages WHERE topic = ? AND ts >= ?'),
      maxSeq: this.db.prepare('SELECT MAX(seq) AS seq FROM messages WHERE topic = ?'),
      readTenantPartition: this.db.prepare(TENANT_READS.partition),
      readTenantSeq: this.db.prepare(TENANT_READS.afterSeq),
      firstTenantSeqAt: this.db.prepare(TENANT_READS.firstSeqAt),
      maxTenantSeq: this.db.prepare(TENANT_READS.maxSeq),
      firstOffset: this.db.prepare('SELECT MIN(offset) AS offset FROM messages WHERE topic = ? AND partition = ?'),
      getCommit: this.db.prepare('SELECT offset FROM group_offsets WHERE group_id = ? AND topic = ? AND partition = ?'),
      setEnd: this.db.prepare(
        `INSERT INTO partition_ends (topic, partition, next_offset) VALUES (?, ?, ?)
         ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset`,
      ),
      setCommit: this.db.prepare(
        `INSERT INTO group_offsets (group_id, topic, partition, offset) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET offset = excluded.offset`,
      ),
      compactionMark: this.db.prepare('SELECT seq FROM compaction_marks WHERE topic = ?'),
      setCompactionMark: this.db.prepare(
        'INSERT INTO compaction_marks (topic, seq) VALUES (?, ?) ON CONFLICT (topic) DO UPDATE SET seq = excluded.seq',
      ),
      newSince: this.db.prepare('SELECT seq, partition, key, offset FROM messages WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?'),
      dropSuperseded: this.db.prepare('DELETE FROM messages WHERE topic = ? AND partition = ? AND key = ? AND offset < ?'),
      expire: this.db.prepare(
        'DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE topic = ? AND ts < ? LIMIT ?)',
      ),
      dropTenant: this.db.prepare(TENANT_READS.drop),
      untagged: this.db.prepare('SELECT seq, value FROM messages WHERE topic = ? AND tenant IS NULL ORDER BY seq LIMIT ?'),
      setTenant: this.db.prepare('UPDATE messages SET tenant = ? WHERE seq = ?'),
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

  /**
   * Changes to the messages so far. Reads resolve after their rows were taken (values inflate off
   * the loop), so a reader that found nothing compares this before it sleeps: an append in between
   * woke nobody. (A clean-up in between costs one more read, nothing else.)
   */
  get changes(): number {
    return this.writes;
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

  /**
   * Appends atomically: either every message of the call is stored or none. `packed` holds the
   * values already deflated (log-values.ts), when the caller did that elsewhere.
   */
  append(topicName: string, messages: OutgoingMessage[], packed?: Buffer[], now = Date.now()): AppendedTo[] {
    const spec = this.topic(topicName);
    if (spec.tenants && messages.some((m) => !m.tenant)) throw new Error(`every message on the tenant-scoped topic ${topicName} needs a tenant`);
    const touched = new Map<string, AppendedTo>();
    const ends = new Map<number, number>();
    this.writes++;
    this.db.transaction(() => {
      messages.forEach((m, i) => {
        const partition = partitionFor(m.partitionKey ?? m.key, spec.partitions);
        const k = `${topicName}/${partition}`;
        const offset = ends.get(partition) ?? this.nextOffset.get(k) ?? 0;
        const tenant = spec.tenants ? m.tenant : undefined;
        const value = packed?.[i] ?? packValue(m.value);
        this.stmts.insert.run(topicName, partition, offset, m.key, value, JSON.stringify(m.headers ?? {}), now, tenant ?? null);
        ends.set(partition, offset + 1);
        touched.set(`${tenant ?? ''}/${partition}`, { partition, tenant });
      });
      // Each partition's end once per append, not once per message.
      for (const [partition, end] of ends) this.stmts.setEnd.run(topicName, partition, end);
    })();
    // Only once the transaction holds: a failed append leaves the offsets as they were.
    for (const [partition, end] of ends) this.nextOffset.set(`${topicName}/${partition}`, end);
    return [...touched.values()];
  }

  /** Messages from `fromOffset` on; values are inflated off the event loop when there are many. */
  readPartition(topic: string, partition: number, fromOffset: number, limit: number, tenant?: string): Promise<readonly LogMessage[]> {
    // The groups of one process, woken by the same append, read the same range one after another:
    // the first reads and inflates, the others take its messages while nothing was written since.
    const key = `${topic}\u0000${partition}\u0000${fromOffset}\u0000${limit}\u0000${tenant ?? ''}`;
    if (this.lastRead?.key === key && this.lastRead.writes === this.writes) return this.lastRead.messages;
    const rows = (tenant === undefined
      ? this.stmts.readPartition.all(topic, partition, fromOffset, limit)
      : this.stmts.readTenantPartition.all(topic, tenant, partition, fromOffset, limit)) as Row[];
    // Frozen: several readers hold the very same objects.
    const messages = backgroundZlib.unpack(rows.map((r) => r.value)).then((values) =>
      Object.freeze(
        rows.map((r, i) => {
          const m = toMessage(r, values[i]);
          Object.freeze(m.headers);
          return Object.freeze(m);
        }),
      ),
    );
    this.lastRead = { key, writes: this.writes, messages };
    return messages;
  }

  async readAfterSeq(topic: string, afterSeq: number, limit: number, tenant?: string): Promise<SeqMessage[]> {
    const rows = (tenant === undefined ? this.stmts.readSeq.all(topic, afterSeq, limit) : this.stmts.readTenantSeq.all(topic, tenant, afterSeq, limit)) as Row[];
    const values = await backgroundZlib.unpack(rows.map((r) => r.value));
    return rows.map((r, i) => ({ ...toMessage(r, values[i]), seq: r.seq }));
  }

  /** The seq just before the first message at or after `ts` (so reading "after" it starts there). */
  seqBefore(topic: string, ts: number, tenant?: string): number {
    const r = (tenant === undefined ? this.stmts.firstSeqAt.get(topic, ts) : this.stmts.firstTenantSeqAt.get(topic, tenant, ts)) as
      | { seq: number | null }
      | undefined;
    if (r && r.seq !== null) return r.seq - 1;
    return this.maxSeq(topic, tenant);
  }

  maxSeq(topic: string, tenant?: string): number {
    const r = (tenant === undefined ? this.stmts.maxSeq.get(topic) : this.stmts.maxTenantSeq.get(topic, tenant)) as { seq: number | null };
    return r.seq ?? 0;
  }

  endOffset(topic: string, partition: number): number {
    return this.nextOffset.get(`${topic}/${partition}`) ?? 0;
  }

  /** The oldest offset still kept in the partition (its end when it holds nothing). */
  firstOffset(topic: string, partition: number): number {
    const r = this.stmts.firstOffset.get(topic, partition) as { offset: number | null };
    return r.offset ?? this.endOffset(topic, partition);
  }

  committed(groupId: string, topic: string, partition: number): number | undefined {
    return (this.stmts.getCommit.get(groupId, topic, partition) as { offset: number } | undefined)?.offset;
  }

  commit(groupId: string, topic: string, partition: number, nextOffset: number): void {
    this.stmts.setCommit.run(groupId, topic, partition, nextOffset);
  }

  topicNames(): string[] {
    return [...this.topics.keys()];
  }

  /**
   * One chunk of compaction and retention on one topic: drops messages superseded by a newer one
   * with the same key (compacted topics; only what arrived since the last chunk is looked at, so a
   * pass costs the new messages, not the topic), and messages older than the retention. Offsets
   * keep their gaps, as in Kafka. Returns how many were removed and whether more work is left.
   */
  cleanChunk(topic: string, now: number): { removed: number; more: boolean } {
    this.writes++;
    const spec = this.topic(topic);
    let removed = 0;
    let more = false;
    this.db.transaction(() => {
      if (spec.compacted) {
        const mark = (this.stmts.compactionMark.get(topic) as { seq: number } | undefined)?.seq ?? 0;
        const fresh = this.stmts.newSince.all(topic, mark, CHUNK_ROWS) as { seq: number; partition: number; key: string; offset: number }[];
        for (const r of fresh) removed += this.stmts.dropSuperseded.run(topic, r.partition, r.key, r.offset).changes;
        if (fresh.length > 0) this.stmts.setCompactionMark.run(topic, fresh[fresh.length - 1].seq);
        more ||= fresh.length === CHUNK_ROWS;
      }
      if (spec.retentionMs) {
        const expired = this.stmts.expire.run(topic, now - spec.retentionMs, CHUNK_ROWS).changes;
        removed += expired;
        more ||= expired === CHUNK_ROWS;
      }
    })();
    return { removed, more };
  }

  /** One chunk of removing a tenant's slice; returns how many messages went. */
  /**
   * One chunk of an erasure: of the partition's messages after `afterOffset` (at most CHUNK_ROWS,
   * in offset order through the (topic, partition, offset) key), deletes those whose value
   * `matches`. Answers where to go on from (undefined at the partition's end) and how many went.
   */
  eraseChunk(topic: string, partition: number, afterOffset: number, matches: (value: string) => boolean): { next?: number; erased: number } {
    const rows = this.db.prepare('SELECT seq, offset, value FROM messages WHERE topic = ? AND partition = ? AND offset > ? ORDER BY offset LIMIT ?').all(topic, partition, afterOffset, CHUNK_ROWS) as {
      seq: number;
      offset: number;
      value: string | Buffer;
    }[];
    const doomed = rows.filter((r) => matches(unpackValue(r.value))).map((r) => r.seq);
    if (doomed.length) {
      this.writes++;
      const del = this.db.prepare('DELETE FROM messages WHERE seq = ?');
      this.db.transaction(() => doomed.forEach((seq) => del.run(seq)))();
    }
    return { next: rows.length === CHUNK_ROWS ? rows[rows.length - 1].offset : undefined, erased: doomed.length };
  }

  dropTenantChunk(topic: string, tenant: string): number {
    this.writes++;
    return this.stmts.dropTenant.run(topic, tenant, CHUNK_ROWS).changes;
  }

  /**
   * One chunk of the tenant migration: messages of a tenant-scoped topic stored before slices
   * existed get their tenant from the spec's field. A value without that field can never join a
   * slice; it gets the empty tenant (no reader asks for it) so the migration never sees it again.
   */
  migrateTenantChunk(topic: string): number {
    this.writes++;
    const field = this.topic(topic).tenants?.field;
    if (!field) return 0;
    const rows = this.stmts.untagged.all(topic, CHUNK_ROWS) as { seq: number; value: string | Buffer }[];
    this.db.transaction(() => {
      for (const r of rows) this.stmts.setTenant.run(tenantFromValue(unpackValue(r.value), field) ?? '', r.seq);
    })();
    return rows.length;
  }

  close(): Promise<void> {
    return closeSqlite(this.db);
  }
}
