/**
 * What the outbox stores: one document per message, holding the whole OutgoingMessage as one JSON
 * text (so fields the event log gains later pass through untouched) and the state check that
 * makes it publishable. Entries are deleted once published: the outbox only ever holds a backlog.
 */
import { randomBytes } from 'node:crypto';
import type { OutgoingMessage } from '@wellstream/bus';
import type { Filter } from '@wellstream/store';

/**
 * The state change a message announces, as a condition on one stored document: the message may be
 * published once `filter` matches a document of `collection` (e.g. the record with this checksum,
 * the user at this version or later). Used to resolve entries a crashed writer left behind.
 */
export interface StateCheck {
  collection: string;
  filter: Filter;
}

/** A message to write through the outbox. */
export interface PendingMessage {
  topic: string;
  message: OutgoingMessage;
  confirmedBy: StateCheck;
}

export type OutboxState = 'prepared' | 'ready';

export interface OutboxEntry {
  /** Time-ordered, so the relay publishes in write order. */
  _id: string;
  batch_id: string;
  /** prepared: written before the state change, not publishable yet; ready: the change is stored. */
  state: OutboxState;
  topic: string;
  /** The OutgoingMessage as JSON text. */
  message: string;
  /** The StateCheck as JSON text (its filter may hold `$` operators, which are not stored as keys). */
  confirmed_by: string;
  created_at: string;
}

let counter = 0;
/** Tells processes apart; within one, the counter does (drawn once: a draw per id cost more than the rest). */
const processPart = randomBytes(4).toString('hex');
/** Sortable: millisecond time, then a per-process counter, then randomness across processes. */
export function outboxId(now = Date.now()): string {
  counter = (counter + 1) % 1e9;
  return `${String(now).padStart(15, '0')}-${String(counter).padStart(9, '0')}-${processPart}`;
}

export function toEntry(m: PendingMessage, batchId: string, state: OutboxState, now: Date): OutboxEntry {
  return {
    _id: outboxId(now.getTime()),
    batch_id: batchId,
    state,
    topic: m.topic,
    message: JSON.stringify(m.message),
    confirmed_by: JSON.stringify(m.confirmedBy),
    created_at: now.toISOString(),
  };
}

/** Entries written before this library (records' outbox) carried the message spread over fields. */
interface LegacyFields {
  key?: string;
  value?: string;
  partition_key?: string;
  tenant?: string;
  record_id?: string;
  checksum?: string;
}

export function messageOf(entry: OutboxEntry): OutgoingMessage {
  if (entry.message !== undefined) return JSON.parse(entry.message) as OutgoingMessage;
  const legacy = entry as unknown as LegacyFields;
  return { key: legacy.key ?? '', value: legacy.value ?? '', partitionKey: legacy.partition_key, ...(legacy.tenant ? { tenant: legacy.tenant } : {}) };
}

export function stateCheckOf(entry: OutboxEntry): StateCheck {
  if (entry.confirmed_by !== undefined) return JSON.parse(entry.confirmed_by) as StateCheck;
  const legacy = entry as unknown as LegacyFields;
  return { collection: 'records', filter: { _id: legacy.record_id ?? '', checksum: legacy.checksum ?? '' } };
}
