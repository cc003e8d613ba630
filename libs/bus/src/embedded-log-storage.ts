/**
 * The embedded log's storage: one SQLite file holds every topic's messages and every group's
 * committed positions (embedded-log-schema.ts). This class keeps what is read on every append and
 * read (the topics, each partition's next offset, a count of changes) and appends, reads and
 * commits; the bulk work on many rows is in embedded-log-cleanup.ts, done in bounded chunks.
 */
import type Database from 'better-sqlite3';
import { closeSqlite } from '@wellstream/sqlite';
import type { LogMessage, OutgoingMessage, TopicSpec } from './event-log.port';
import { backgroundZlib } from './background-zlib';
import { cleanChunk, dropTenantChunk, eraseChunk, migrateTenantChunk } from './embedded-log-cleanup';
import { AppendedTo, Row, SeqMessage, toMessage } from './embedded-log-rows';
import { openLogDatabase } from './embedded-log-schema';
import { LogStatements, prepareLogStatements } from './embedded-log-statements';
import { packValue } from './log-values';
import { partitionFor } from './partitioner';

export class EmbeddedLogStorage {
  private readonly db: Database.Database;
  private readonly topics = new Map<string, TopicSpec>();
  private readonly nextOffset = new Map<string, number>();
  private readonly stmts: LogStatements;
  /** Counts changes to the messages, so a remembered read knows it is still what the table holds. */
  private writes = 0;
  private lastRead: { key: string; writes: number; messages: Promise<readonly LogMessage[]> } | undefined;

  constructor(file: string) {
    this.db = openLogDatabase(file);
    this.stmts = prepareLogStatements(this.db);
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

  /** One chunk of compaction and retention on one topic (embedded-log-cleanup.ts). */
  cleanChunk(topic: string, now: number): { removed: number; more: boolean } {
    this.writes++;
    return cleanChunk({ db: this.db, stmts: this.stmts }, this.topic(topic), now);
  }

  /** One chunk of an erasure of the messages whose value `matches` (embedded-log-cleanup.ts). */
  eraseChunk(topic: string, partition: number, afterOffset: number, matches: (value: string) => boolean): { next?: number; erased: number } {
    const out = eraseChunk({ db: this.db, stmts: this.stmts }, topic, partition, afterOffset, matches);
    if (out.erased) this.writes++;
    return out;
  }

  /** One chunk of removing a tenant's slice; returns how many messages went. */
  dropTenantChunk(topic: string, tenant: string): number {
    this.writes++;
    return dropTenantChunk({ db: this.db, stmts: this.stmts }, topic, tenant);
  }

  /** One chunk of giving messages stored before tenant slices existed their tenant (embedded-log-cleanup.ts). */
  migrateTenantChunk(topic: string): number {
    this.writes++;
    return migrateTenantChunk({ db: this.db, stmts: this.stmts }, this.topic(topic));
  }

  close(): Promise<void> {
    return closeSqlite(this.db);
  }
}
