/**
 * What the outbox stores: one document per write (a batch of messages), holding each whole
 * OutgoingMessage as JSON text (so fields the event log gains later pass through untouched) with
 * the state check that makes it publishable. Entries are deleted once published: the outbox only
 * ever holds a backlog.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { OutgoingMessage } from '@wellstream/bus';
import type { Filter, UpsertSet } from '@wellstream/store';

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

/** One message of a batch entry, as stored in its `messages` text. */
interface StoredMessage {
  topic: string;
  message: OutgoingMessage;
  confirmed_by: StateCheck;
}

/** One message of a batch entry stored as a list: its state check as JSON text (`$` operators are not stored as keys). */
interface ListedMessage {
  topic: string;
  message: OutgoingMessage;
  confirmed_by: string;
}

/**
 * One write's messages, as one document: written, made ready and removed as one (a batch of 100
 * records is one insert, one update, one delete, whatever the store does per document).
 */
export interface OutboxEntry {
  /** Time-ordered, so the relay publishes in write order. */
  _id: string;
  batch_id: string;
  /** prepared: written before the state change, not publishable yet; ready: the change is stored. */
  state: OutboxState;
  /**
   * The batch's messages in write order: as packed JSON text (StoredMessage[]; state-check filters
   * hold `$` operators, which are not stored as keys; see packText), or, from a store that writes
   * the entry in one transaction with its change, as a list (the text nested in the document's own
   * JSON escaped every event a second time, on the way in and out).
   */
  messages?: string | ListedMessage[];
  /** Entries of one message each, written before batch entries: its topic, message and state check. */
  topic?: string;
  message?: string;
  confirmed_by?: string;
  /** While prepared: the documents the change implies (UpsertSet[] as packed JSON text), for the relay to write should the writer die before. */
  derived?: string;
  created_at: string;
}

/** A message of an entry, with the state check that makes it publishable. */
export interface EntryMessage {
  topic: string;
  message: OutgoingMessage;
  check: StateCheck;
}

let counter = 0;
/** Tells processes apart; within one, the counter does (drawn once: a draw per id cost more than the rest). */
const processPart = randomBytes(4).toString('hex');
/** Sortable: millisecond time, then a per-process counter, then randomness across processes. */
export function outboxId(now = Date.now()): string {
  counter = (counter + 1) % 1e9;
  return `${String(now).padStart(15, '0')}-${String(counter).padStart(9, '0')}-${processPart}`;
}

/**
 * Characters of JSON an entry holds at most: well under the 16 MB a MongoDB document may take
 * (a batch of large records, several requests of one user, can be more; it becomes several entries).
 */
export const MAX_ENTRY_CHARS = 4_000_000;

/**
 * A write's messages as entries: one, unless its JSON would pass MAX_ENTRY_CHARS. `derived` goes
 * into the entry only when everything fits in one; resolves whether it did.
 */
export function toEntries(messages: PendingMessage[], batchId: string, state: OutboxState, now: Date, derived: UpsertSet[] = []): { entries: OutboxEntry[]; derivedKept: boolean } {
  const parts = messages.map((m) => JSON.stringify({ topic: m.topic, message: m.message, confirmed_by: m.confirmedBy } satisfies StoredMessage));
  const chunks: string[][] = [[]];
  let size = 0;
  for (const part of parts) {
    if (size > 0 && size + part.length > MAX_ENTRY_CHARS) {
      chunks.push([]);
      size = 0;
    }
    chunks[chunks.length - 1].push(part);
    size += part.length + 1;
  }
  const derivedText = derived.length > 0 ? JSON.stringify(derived) : undefined;
  const derivedKept = derivedText === undefined || (chunks.length === 1 && size + derivedText.length <= MAX_ENTRY_CHARS);
  const entries = chunks.map((chunk, i): OutboxEntry => {
    const entry: OutboxEntry = { _id: outboxId(now.getTime()), batch_id: batchId, state, messages: packText(`[${chunk.join(',')}]`), created_at: now.toISOString() };
    if (i === 0 && derivedText !== undefined && derivedKept) entry.derived = packText(derivedText);
    return entry;
  });
  return { entries, derivedKept };
}

/**
 * A write's messages as ready entries in the list form, for a store that writes them in one
 * transaction with the change (no derived documents: they join that transaction). One entry,
 * unless the messages' size passes MAX_ENTRY_CHARS (counted by their values and checks, which
 * are nearly all of it).
 */
export function toListedEntries(messages: PendingMessage[], batchId: string, now: Date): OutboxEntry[] {
  const chunks: ListedMessage[][] = [[]];
  let size = 0;
  for (const m of messages) {
    const listed: ListedMessage = { topic: m.topic, message: m.message, confirmed_by: JSON.stringify(m.confirmedBy) };
    const part = sizeOf(listed);
    if (size > 0 && size + part > MAX_ENTRY_CHARS) {
      chunks.push([]);
      size = 0;
    }
    chunks[chunks.length - 1].push(listed);
    size += part;
  }
  const createdAt = now.toISOString();
  return chunks.map((chunk): OutboxEntry => ({ _id: outboxId(now.getTime()), batch_id: batchId, state: 'ready', messages: chunk, created_at: createdAt }));
}

/** About the characters of JSON a listed message takes (its strings, and room for the rest). */
function sizeOf(m: ListedMessage): number {
  let n = m.topic.length + m.confirmed_by.length + m.message.key.length + m.message.value.length + (m.message.partitionKey?.length ?? 0) + (m.message.tenant?.length ?? 0) + 200;
  for (const [k, v] of Object.entries(m.message.headers ?? {})) n += k.length + v.length + 6;
  return n;
}

/** The documents a prepared entry's change implies (none once ready). */
export function derivedOf(entry: OutboxEntry): UpsertSet[] {
  return entry.derived === undefined ? [] : (JSON.parse(unpackText(entry.derived)) as UpsertSet[]);
}

/**
 * JSON text as an entry stores it without transactions: deflated, in base64. The entry is written,
 * made ready (rewritten whole by FerretDB), read and deleted by the relay; a batch's events are
 * mostly repeated field names and ids and shrink about five times, which the store then handles
 * five times less of (a 100-record entry: about 130 KB of text, 25 KB packed) for a millisecond
 * of this process's time. Level 1: most of the shrinking for the least time.
 */
export function packText(json: string): string {
  return deflateRawSync(json, { level: 1 }).toString('base64');
}

/** Packed or plain (written before packing): JSON text starts with `[`, which base64 never does. */
export function unpackText(stored: string): string {
  return stored.startsWith('[') ? stored : inflateRawSync(Buffer.from(stored, 'base64')).toString('utf8');
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

/** An entry's messages in write order, whichever form it was written in. */
export function messagesOf(entry: OutboxEntry): EntryMessage[] {
  if (Array.isArray(entry.messages)) return entry.messages.map((m) => ({ topic: m.topic, message: m.message, check: JSON.parse(m.confirmed_by) as StateCheck }));
  if (entry.messages !== undefined) return (JSON.parse(unpackText(entry.messages)) as StoredMessage[]).map((m) => ({ topic: m.topic, message: m.message, check: m.confirmed_by }));
  return [{ topic: entry.topic ?? '', message: messageOf(entry), check: stateCheckOf(entry) }];
}

function messageOf(entry: OutboxEntry): OutgoingMessage {
  if (entry.message !== undefined) return JSON.parse(entry.message) as OutgoingMessage;
  const legacy = entry as unknown as LegacyFields;
  return { key: legacy.key ?? '', value: legacy.value ?? '', partitionKey: legacy.partition_key, ...(legacy.tenant ? { tenant: legacy.tenant } : {}) };
}

function stateCheckOf(entry: OutboxEntry): StateCheck {
  if (entry.confirmed_by !== undefined) return JSON.parse(entry.confirmed_by) as StateCheck;
  const legacy = entry as unknown as LegacyFields;
  return { collection: 'records', filter: { _id: legacy.record_id ?? '', checksum: legacy.checksum ?? '' } };
}

/** The entry keeping only these of its messages (a crashed writer's batch whose change was stored in part). */
export function withMessages(entry: OutboxEntry, messages: EntryMessage[], state: OutboxState): OutboxEntry {
  const stored: StoredMessage[] = messages.map((m) => ({ topic: m.topic, message: m.message, confirmed_by: m.check }));
  return { _id: entry._id, batch_id: entry.batch_id, state, messages: packText(JSON.stringify(stored)), created_at: entry.created_at };
}
