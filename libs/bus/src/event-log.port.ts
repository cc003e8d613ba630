/**
 * The event log port: a partitioned, durable log with consumer groups (Kafka's model). Two
 * adapters implement it: the embedded one (SQLite) and Kafka (kafkajs). Callers never see either.
 */
import type { ReadBatch } from './read-batch';

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Keep only the newest message per key (cleanup.policy=compact,delete). */
  compacted?: boolean;
  /** Messages older than this are deleted. */
  retentionMs?: number;
  /**
   * A tenant-scoped topic: every message names its tenant (`OutgoingMessage.tenant`), and a reader
   * may ask for one tenant's slice only (`ConsumeOptions.tenant`, `TailOptions.tenant`), at a cost
   * that follows that tenant's messages, never the whole topic's. Readers without a tenant (internal
   * consumers) still see every message.
   */
  tenants?: TenantSliceSpec;
}

export interface TenantSliceSpec {
  /** Partitions of each tenant's slice (Kafka: of each tenant's topic); messages go by partition key. */
  partitions: number;
  /**
   * The JSON field of a message value that names its tenant: used once, to move messages written
   * before the topic was tenant-scoped into their tenant's slice (`migrateTenants`).
   */
  field: string;
}

export interface OutgoingMessage {
  /** Message key (compaction identity), e.g. a record id. */
  key: string;
  /** JSON text. */
  value: string;
  /** What picks the partition (e.g. the user id, so one user's events stay in order); default the key. */
  partitionKey?: string;
  headers?: Record<string, string>;
  /** Required on a tenant-scoped topic: whose slice the message also belongs to. */
  tenant?: string;
}

export interface LogMessage {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Append time, ms since epoch. */
  timestamp: number;
  /** The tenant it was published with (tenant-scoped topics). */
  tenant?: string;
}

export interface ConsumeOptions {
  topic: string;
  /** Members of one group share the partitions; each message goes to one member. */
  groupId: string;
  /** Where a group without a committed position starts: the oldest message, or new ones only. */
  fromBeginning?: boolean;
  /**
   * Called in order within a partition (different partitions may run concurrently). The position is
   * committed only after it resolves; if it throws, the same message is retried after a pause.
   * `batch` is shared by the messages read together (read-batch.ts).
   */
  handle(message: LogMessage, batch: ReadBatch): Promise<void>;
  /** The partitions this member now owns, after every rebalance. */
  onAssignment?(partitions: number[]): void;
  /** Read only this tenant's slice of a tenant-scoped topic (its own partitions and offsets). */
  tenant?: string;
  /**
   * Commit handled positions together at most this often instead of after each message (Kafka:
   * one commit round trip per message caps a partition at a few hundred messages a second). Still
   * only what was handled is committed; a crash redelivers at most this window. Leave it unset
   * where a reader waits on the committed position (read-your-writes).
   */
  commitEveryMs?: number;
}

/**
 * The commit window of groups that read every record (customer events, provider records, source
 * detections): committing after each message was most of what such a member and the broker spent
 * (a commit round trip per event, in every such group). A crash redelivers at most this window,
 * which at-least-once delivery allows. Not for a group read-your-writes waits on.
 */
export const VOLUME_COMMIT_EVERY_MS = 100;

export interface TailOptions {
  topic: string;
  /** Start at the first message appended at or after this time (ms); default: the oldest kept. */
  fromTimestamp?: number;
  handle(message: LogMessage): Promise<void>;
  /** Called once, when everything that existed at the start has been handled. */
  onCaughtUp?(): void;
  /** Read only this tenant's slice of a tenant-scoped topic. */
  tenant?: string;
}

/** Where a consumer group stands on one partition of a topic. */
export interface GroupPosition {
  partition: number;
  /** The next offset the group will handle: everything before it is handled and committed. */
  handled: number;
  /** The next offset the log will write: everything before it was appended. */
  end: number;
}

export interface Subscription {
  /** Leaves the group (the rest rebalance) after any in-flight handler finishes. */
  stop(): Promise<void>;
}

/** Events read again by a group member at most this far back (a rewind further back is ignored). */
export const MAX_REWIND = 10_000;

/** Whether a rewind from `position` to `offset` applies: only backwards, and at most MAX_REWIND. */
export const rewindApplies = (position: number, offset: number): boolean => offset < position && position - offset <= MAX_REWIND;

/** A consumer group member's subscription. */
export interface GroupSubscription extends Subscription {
  /**
   * Reads `partition` again from `offset` if this member holds it and has read past it (by at most
   * MAX_REWIND): what follows is handled again, at least once. Never moves forward: an offset at or
   * after the member's position changes nothing. For a reader whose last hop can lose what it
   * already handed on (an SSE client cut off, a proxy replaced), so that the client's own account
   * of where it got to wins. The position is committed too, so it holds should this member leave
   * before reading there; a handler may rewind its own partition (the message in hand is then
   * read again with the rest). True when the partition is read again from `offset`; false when it
   * is not (not held, not that far back, or for a partition this member has read nothing of yet
   * on Kafka, not known yet: it is applied once the group's position is).
   */
  rewind(partition: number, offset: number): boolean;
}

/** Which messages an erasure removes: those of one partition key whose value matches. */
export interface EraseSelector {
  /** The partition key they were published with (e.g. the user id): only its partition is read. */
  partitionKey: string;
  /** A tenant-scoped topic: also the tenant's slice (on Kafka its own topic). */
  tenant?: string;
  matches(value: string): boolean;
  /**
   * Keys the caller knows its messages have (e.g. the user id on a topic keyed by user): Kafka
   * tombstones them without reading the topic. Messages under other keys are still found by `matches`
   * where the log reads (embedded always; Kafka in the tenant's slice).
   */
  keys?: string[];
}

export interface EventLog {
  ensureTopic(spec: TopicSpec): Promise<void>;
  /** Resolves once the messages are durable; order is kept per partition. */
  publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
  consume(options: ConsumeOptions): Promise<GroupSubscription>;
  /** Reads without a group and without committing (replay): every reader sees everything. */
  tail(options: TailOptions): Promise<Subscription>;
  /** Sets a group with no members to start at the end of the topic (or of a tenant's slice) now. */
  startGroupAtEnd(groupId: string, topic: string, tenant?: string): Promise<void>;
  /** Makes a tenant's slice ready now (a new customer), so its first reader or writer does not wait. */
  ensureTenant(topic: string, tenant: string): Promise<void>;
  /**
   * Erasure (a user's data, on request or past retention): the embedded log deletes the matching
   * rows of the partition now, in slices. Kafka, on a compacted topic, gets a tombstone per key
   * (the given keys, and on a tenant-scoped topic those found in the tenant's slice, applied to the
   * slice and the shared topic alike), which the cleaner applies at the next compaction; consumers
   * skip tombstones. A delete-policy Kafka topic is left to its retention (a tombstone removes
   * nothing there). Returns how many messages were removed or tombstoned.
   */
  eraseMessages(topic: string, selector: EraseSelector): Promise<number>;
  /** Removes a tenant's slice and its messages (a deleted customer). */
  dropTenant(topic: string, tenant: string): Promise<void>;
  /**
   * Puts messages written before the topic was tenant-scoped into their tenant's slice (by the
   * TopicSpec's `tenants.field`); idempotent, resumable. Returns how many it moved.
   */
  migrateTenants(topic: string): Promise<number>;
  /**
   * Per partition, how far the group has handled the topic and where the topic ends now. A group
   * that has not committed a partition counts from the oldest message kept there. Read-your-writes
   * waits on it (read-your-writes.ts).
   */
  groupPositions(groupId: string, topic: string): Promise<GroupPosition[]>;
  /** Members currently in the group (as far as this adapter can see). */
  groupMemberCount(groupId: string): Promise<number>;
  /** Cheap liveness check for health endpoints. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export const REQUEST_ID_HEADER = 'x-request-id';
