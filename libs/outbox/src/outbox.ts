/**
 * The transactional outbox every producer writes its events through. The document store has no
 * transactions, so a state change and its events are tied together by order and a check:
 *   1. the entries are written `prepared` (not publishable),
 *   2. the caller's state change runs,
 *   3. the entries become `ready` and the relay is started, without waiting for it.
 * If the writer dies between 1 and 3, the relay later resolves the stale entries by their state
 * check (published if the change is stored, dropped if not). So nothing is published that was not
 * stored, nothing stored stays unpublished, and no request waits for the event log: a failed
 * publish is retried by the relay until the log takes it, even when the request is never retried.
 * A change of whole documents on a store that has transactions (`writeDocuments`) needs none of
 * this: its documents and its entries, written ready, are one transaction.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog, OutgoingMessage } from '@wellstream/bus';
import { REQUEST_ID_HEADER } from '@wellstream/bus';
import { eventMessage, TopicDefinition } from '@wellstream/contracts';
import { currentRequestId, Logger } from '@wellstream/logging';
import type { DocumentStore, UpsertSet } from '@wellstream/store';
import type { PendingMessage, StateCheck } from './outbox-entry';
import { OutboxRepository } from './outbox.repository';
import { OutboxBacklog, OutboxRelay } from './outbox-relay';
import { Clock, systemClock } from '@wellstream/clock';

export interface OutboxOptions {
  eventLog: EventLog;
  logger: Logger;
  clock?: Clock;
  /** A prepared entry older than this was left by a writer that crashed or failed. */
  staleMs?: number;
  /** How often the relay retries on its own (the request path starts it after every write). */
  drainMs?: number;
  /** How long one relay's publishing round may hold the outbox before another replica's relay takes over. */
  relayLeaseMs?: number;
}

/** A state change made of whole-document upserts, in two forms the outbox picks from. */
export interface DocumentChange {
  /** The documents, for a store that writes them in one transaction with the entries. */
  sets: UpsertSet[];
  /** The same change through the caller's own repositories (a store without transactions). */
  apply(): Promise<void>;
  /**
   * Documents that follow from the change (keys, counters, history), replaced by _id in this
   * outbox's store. With transactions they join the one transaction. Without, they are kept in
   * the prepared entry and written after `apply`, before the entry becomes ready; should the
   * writer die in between, the relay writes them when it finds the change stored, before
   * publishing. So a stored change never stays without them.
   */
  derived?: UpsertSet[];
}

/**
 * How a write's caller wants its events to leave. `publishWithinMs`: the write resolves once its
 * events are on the log, or after this long if the log does not take them (an outage; the relay
 * keeps trying). For writes that another service reads right after the answer (a user or an
 * organization created, then used): their readers wait by log position (libs/bus
 * read-your-writes.ts), which finds the write only if it reached the log before the answer.
 */
export interface WriteOptions {
  publishWithinMs?: number;
}

/** Long enough for a healthy log (a few ms), short enough that an outage slows such writes only a little. */
export const DEFAULT_PUBLISH_WITHIN_MS = 2_000;

export const DEFAULT_OUTBOX_STALE_MS = 30_000;
export const DEFAULT_OUTBOX_DRAIN_MS = 2_000;
export const DEFAULT_RELAY_LEASE_MS = 10_000;

export class Outbox {
  private constructor(
    private readonly entries: OutboxRepository,
    private readonly relay: OutboxRelay,
    private readonly options: OutboxOptions,
    private readonly clock: Clock,
  ) {}

  /** Opens the outbox in the service's own store; call start() once the service is ready to publish. */
  static async open(store: DocumentStore, options: OutboxOptions): Promise<Outbox> {
    const clock = options.clock ?? systemClock;
    const entries = await OutboxRepository.open(store);
    const relay = new OutboxRelay({ entries, eventLog: options.eventLog, logger: options.logger, clock, staleMs: options.staleMs ?? DEFAULT_OUTBOX_STALE_MS, leaseMs: options.relayLeaseMs ?? DEFAULT_RELAY_LEASE_MS });
    return new Outbox(entries, relay, options, clock);
  }

  /**
   * A catalog event as an outbox message: validated now, published as written (joi would rewrite
   * times such as start_time into another ISO form), carrying the current request id.
   */
  message<T>(topic: TopicDefinition<T>, event: T, confirmedBy: StateCheck): PendingMessage {
    const message: OutgoingMessage = eventMessage(topic, event);
    const requestId = currentRequestId();
    if (requestId) message.headers = { [REQUEST_ID_HEADER]: requestId, ...message.headers };
    return { topic: topic.spec.name, message, confirmedBy };
  }

  /**
   * Runs `change` with its messages: they are published after it succeeded (and only if its state
   * check then holds, should this process die before marking them). Resolves once the change and
   * the entries are stored; publishing happens afterwards.
   */
  async write<R>(messages: PendingMessage[], change: () => Promise<R>, options: WriteOptions = {}): Promise<R> {
    if (messages.length === 0) return change();
    const batchId = randomUUID();
    const { ids } = await this.entries.add(batchId, messages, 'prepared', this.clock.now());
    return this.finishWrite(batchId, ids, messages, change, options);
  }

  /** `write` once its entries (`ids`) are written prepared: the change, then ready. */
  private async finishWrite<R>(batchId: string, ids: string[], messages: PendingMessage[], change: () => Promise<R>, options: WriteOptions): Promise<R> {
    let result: R;
    try {
      result = await change();
    } catch (err) {
      await this.settleFailed(batchId, messages).catch(() => undefined);
      throw err;
    }
    let readyBatch = batchId;
    if ((await this.entries.markReady(ids)) !== ids.length) {
      // The relay took this slow writer for a crashed one and dropped its entries: write them
      // again, ready (publishing twice is allowed; a stored change without its event is not).
      readyBatch = randomUUID();
      await this.entries.add(readyBatch, messages, 'ready', this.clock.now());
    }
    await this.published(readyBatch, options);
    return result;
  }

  /**
   * `write` for a change that is whole documents replaced by _id in this outbox's store: where the
   * store has transactions (embedded SQLite), the documents and the entries, already ready, are
   * one transaction (nothing to resolve after a crash: both are stored or neither); elsewhere the
   * same three steps as `write`.
   */
  async writeDocuments(messages: PendingMessage[], change: DocumentChange, options: WriteOptions = {}): Promise<void> {
    const derived = (change.derived ?? []).filter((set) => set.docs.length > 0);
    const batchId = messages.length > 0 ? await this.entries.addWithDocuments(messages, [...change.sets, ...derived], this.clock.now()) : undefined;
    if (batchId) {
      await this.published(batchId, options);
      return;
    }
    const applyAll = async () => {
      await change.apply();
      await this.entries.writeDerived(derived);
    };
    if (messages.length === 0 || derived.length === 0) {
      await this.write(messages, applyAll, options);
      return;
    }
    const id = randomUUID();
    const { ids, derivedKept } = await this.entries.add(id, messages, 'prepared', this.clock.now(), derived);
    if (!derivedKept) {
      // Too large for one entry (a rare, very large batch): the entries are written, and the
      // derived documents follow the change inside its step, as `write` orders them.
      await this.finishWrite(id, ids, messages, applyAll, options);
      return;
    }
    try {
      await change.apply();
      await this.entries.writeDerived(derived);
    } catch (err) {
      await this.settleFailedDocuments(id, messages, derived).catch(() => undefined);
      throw err;
    }
    let readyBatch = id;
    if ((await this.entries.markReady(ids)) !== ids.length) {
      readyBatch = randomUUID();
      await this.entries.add(readyBatch, messages, 'ready', this.clock.now());
    }
    await this.published(readyBatch, options);
  }

  /**
   * Starts the relay; when the caller asked to answer after publishing, waits until the batch's
   * entries have left the outbox (published), at most `publishWithinMs`. One drain is not enough:
   * a concurrent writer's older entry still `prepared` stops the relay before this batch (order
   * per key), and that writer's own drain publishes both a moment later.
   */
  private async published(batchId: string, { publishWithinMs }: WriteOptions): Promise<void> {
    if (!publishWithinMs || publishWithinMs <= 0) return this.relay.kick();
    const deadline = Date.now() + publishWithinMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      // A failed drain is the relay's to retry (its timer); the write itself is stored either way.
      const drained = this.relay.drain().catch((err) => void this.options.logger.warn('outbox publish failed; will retry', { error: err }));
      await Promise.race([drained, new Promise<void>((r) => (timer = setTimeout(r, left)))]).finally(() => clearTimeout(timer));
      if (!(await this.entries.holds(batchId).catch(() => false))) return;
      await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(1, deadline - Date.now()))));
    }
  }

  /**
   * A failed change usually changed nothing (a lost race, a refused write), and its prepared
   * entries would hold the relay back until they go stale; a write that failed late may still have
   * been stored. Decide now by the state checks; if even that fails, the relay decides later.
   */
  private async settleFailed(batchId: string, messages: PendingMessage[]): Promise<void> {
    const stored = await Promise.all(messages.map((m) => this.entries.confirmed(m.confirmedBy)));
    if (stored.every((s) => !s)) await this.entries.removeBatch(batchId);
    else if (stored.every(Boolean)) await this.entries.markBatchReady(batchId);
    // Mixed: leave them to the relay's per-entry resolution once stale.
  }

  /**
   * `settleFailed` for a change with derived documents: nothing stored, the entry goes; something
   * stored, its derived documents are written and the entry made ready. Should that fail too, the
   * entry stays prepared for the relay, which does the same once it is stale.
   */
  private async settleFailedDocuments(batchId: string, messages: PendingMessage[], derived: UpsertSet[]): Promise<void> {
    const stored = await Promise.all(messages.map((m) => this.entries.confirmed(m.confirmedBy)));
    if (stored.every((s) => !s)) return this.entries.removeBatch(batchId);
    if (!stored.every(Boolean)) return;
    await this.entries.writeDerived(derived);
    await this.entries.markBatchReady(batchId);
  }

  async start(): Promise<void> {
    await this.relay.start(this.options.drainMs ?? DEFAULT_OUTBOX_DRAIN_MS);
  }

  /** Publishes what is ready now and waits for it (tests, shutdown). */
  drain(): Promise<void> {
    return this.relay.drain();
  }

  stop(): Promise<void> {
    return this.relay.stop();
  }

  backlog(): Promise<OutboxBacklog> {
    return this.relay.backlog();
  }
}

/** Gauges for a metrics registry: what waits to be published, and for how long. */
export function outboxGauges(outbox: Outbox): { name: string; help: string; read: () => Promise<{ value: number }[]> }[] {
  return [
    { name: 'outbox_backlog', help: 'Outbox entries (one per write) not yet published', read: async () => [{ value: (await outbox.backlog()).count }] },
    { name: 'outbox_oldest_age_seconds', help: 'Age of the oldest unpublished outbox entry', read: async () => [{ value: (await outbox.backlog()).oldestAgeMs / 1000 }] },
  ];
}
