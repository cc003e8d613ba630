/**
 * One process's reader of one stream: a single member of the stream's consumer group, whatever
 * the number of local clients. The log splits the stream's partitions (= users) between processes;
 * this reader splits its share among its local clients (partition-split.ts), so a client coming or
 * going moves partitions here without a broker rebalance, and an idle client costs a socket and a
 * poke timer, not a broker connection.
 *
 * Delivery keeps the one-member rules: a message is committed only once its frame is in its
 * client's socket, or when the stream's filters leave it out. When the owner of a partition is gone
 * (it disconnected, or was dropped as a slow reader), what it may not have received of the
 * partition is read again for the partition's next local owner (connection-writes.ts), before the
 * message in hand, so a user's events keep their order; with nothing to read again the message goes
 * to the next owner at once, in the same turn.
 */
import { EventLog, GroupSubscription, LogMessage, MAX_REWIND } from '@wellstream/bus';
import { customerEventsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import { matchesFilter, parseCustomerEvent, EventFilter } from '../event-filter';
import { alreadySeenIn, encodePosition, LogPosition } from '../event-position';
import { ClientGoneError, EventSink } from '../event-sink';
import type { StreamLag } from '../stream-lag';
import type { GoneUsersOf, GoneUsersSource } from '../gone-users.port';
import { ConnectionWrites } from './connection-writes';
import { splitPartitions } from './partition-split';

const COMMIT_EVERY_MS = 100;
/** Pauses between attempts to join while the broker is away, growing to the cap (bounded so a stop is not held long). */
const JOIN_RETRY_MS = 1_000;
const JOIN_RETRY_MAX_MS = 5_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface StreamClient {
  readonly sink: EventSink;
  /** Last-Event-ID: this connection skips what it names, in each partition named. */
  readonly resumeAfter?: LogPosition[];
}

export interface GroupReaderDeps {
  eventLog: EventLog;
  lag: StreamLag;
  logger: Logger;
  /** Deleted and erased users of a customer: their events are skipped, whenever they were written. */
  gone: GoneUsersSource;
  /** When a client goes, what it was written this long before is read again for its successors (default IN_FLIGHT_MS). */
  resendWindowMs?: number;
}

export class StreamGroupReader {
  /** In join order (a Set keeps insertion order); coming and going cost O(1). */
  private readonly clients = new Set<StreamClient>();
  private assigned: number[] = [];
  private owners = new Map<number, StreamClient>();
  /**
   * Per client, what was written to it in each partition. Positions are committed every 100 ms, so
   * a rebalance hands back up to that much again; what this connection already has is not written
   * to it twice, and a connection never goes back in a user's events.
   */
  private readonly written = new WeakMap<StreamClient, ConnectionWrites>();
  /** Per client gone, the partitions read again for their next owners. */
  private readonly reread = new WeakMap<StreamClient, Set<number>>();
  private subscription?: GroupSubscription;
  /** The customer's gone users, loaded fresh as the reader joins (before it reads anything). */
  private gone?: GoneUsersOf;
  /** Resume positions of clients that arrived while the reader was joining (see rewindFor). */
  private pendingRewinds: LogPosition[] = [];
  /** Joins and leaves run one after the other, so a client arriving while the last one leaves rejoins cleanly. */
  private membership: Promise<void> = Promise.resolve();

  constructor(
    private readonly group: string,
    private readonly filter: EventFilter,
    private readonly deps: GroupReaderDeps,
    /** Called once the reader has left the group with no client left: the owner may forget it. */
    private readonly onIdle: () => void,
  ) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** Resolves once the joins and leaves asked for so far are done. */
  settled(): Promise<void> {
    return this.membership;
  }

  add(client: StreamClient): void {
    this.clients.add(client);
    this.resplit();
    for (const position of client.resumeAfter ?? []) this.rewindFor(position);
    if (this.clients.size === 1) this.changeMembership(() => this.join());
  }

  /**
   * A client resuming with Last-Event-ID may have lost what came after it on the way (a proxy or a
   * network cut while frames were in flight), though the group committed it once it was in this
   * side's socket. The partition is read again from just after the client's position, if this
   * process holds it; connections that already have those events skip them (`written`), so only
   * what nobody here wrote again is sent (at least once, as ever).
   */
  private rewindFor(resume: LogPosition): void {
    if (this.subscription) this.subscription.rewind(resume.partition, resume.offset + 1);
    else this.pendingRewinds.push(resume);
  }

  remove(client: StreamClient): void {
    if (!this.clients.delete(client)) return;
    this.readAgainFor(client);
    this.resplit();
    if (this.clients.size === 0) this.changeMembership(() => this.leave());
  }

  private changeMembership(step: () => Promise<void>): void {
    this.membership = this.membership.then(step).catch((err) => this.deps.logger.warn('stream reader membership change failed', { group: this.group, error: err }));
  }

  private async join(): Promise<void> {
    for (let attempt = 1; this.clients.size > 0 && !this.subscription; attempt++) {
      try {
        // Fresh: a reader joining after a DELETE answered knows the user before its first event.
        this.gone = await this.deps.gone.forCustomer(this.filter.customerId, true);
        this.subscription = await this.deps.eventLog.consume({
          topic: customerEventsTopic.spec.name,
          tenant: this.filter.customerId,
          groupId: this.group,
          fromBeginning: false,
          // One commit per 100 ms for all its partitions: a reader serves a whole stream, and a
          // commit per message would cap it at the broker's round trips. A crash redelivers at most
          // those 100 ms (at least once, as the contract allows).
          commitEveryMs: COMMIT_EVERY_MS,
          handle: this.handle,
          onAssignment: (partitions) => {
            this.assigned = partitions;
            this.resplit();
          },
        });
        for (const resume of this.pendingRewinds.splice(0)) this.subscription.rewind(resume.partition, resume.offset + 1);
      } catch (err) {
        // The broker is away (a restart): the clients stay connected and poked, and the reader
        // tries again. Closing them would only send every client through a reconnect; nothing was
        // read, so nothing waits.
        this.deps.logger.warn('joining a stream group failed; trying again', { group: this.group, attempt, error: err });
        await sleep(Math.min(JOIN_RETRY_MS * attempt, JOIN_RETRY_MAX_MS));
      }
    }
    // Everyone left while joining: leave again rather than hold partitions nobody reads.
    if (this.clients.size === 0) await this.leave();
  }

  private async leave(): Promise<void> {
    if (this.clients.size > 0) return;
    const subscription = this.subscription;
    this.subscription = undefined;
    this.pendingRewinds = [];
    this.assigned = [];
    this.owners = new Map();
    // Leaving finishes (and commits) in-flight writes, then hands the partitions to the other processes.
    await subscription?.stop();
    if (this.clients.size === 0) this.onIdle();
  }

  private resplit(): void {
    this.owners = splitPartitions(this.assigned, this.clients, this.owners);
  }

  private writtenTo(client: StreamClient): ConnectionWrites {
    let written = this.written.get(client);
    if (!written) this.written.set(client, (written = new ConnectionWrites(this.deps.resendWindowMs)));
    return written;
  }

  /**
   * A client is gone: the partitions it was written lately are read again from its first write it
   * may not have received (connection-writes.ts), for their next owners. The log commits that
   * position too, so it holds should this reader leave the group before reading it again.
   */
  private readAgainFor(client: StreamClient): void {
    const written = this.written.get(client);
    if (!written || !this.subscription) return;
    const reread = new Set<number>();
    for (const [partition, offset] of written.unconfirmed(client.sink.droppedForNotReading, MAX_REWIND)) {
      if (this.subscription.rewind(partition, offset)) reread.add(partition);
    }
    this.reread.set(client, reread);
  }

  /**
   * Whether `m`, in hand for `gone` when it went, is read again with its partition for the next
   * owner (a rewind goes back from the position of the message in hand, so it includes it).
   */
  private readAgain(gone: StreamClient, m: LogMessage): boolean {
    return this.reread.get(gone)?.has(m.partition) ?? false;
  }

  private readonly handle = async (m: LogMessage): Promise<void> => {
    const event = parseCustomerEvent(m.value);
    const wanted = event !== undefined && matchesFilter(this.filter, event) && !this.gone?.has(event.user_id);
    for (;;) {
      if (!this.owners.has(m.partition) && this.clients.size > 0 && !this.assigned.includes(m.partition)) {
        // A message of a partition whose assignment this reader has not been told of yet.
        this.assigned = [...this.assigned, m.partition].sort((a, b) => a - b);
        this.resplit();
      }
      const client = this.owners.get(m.partition);
      // No local client: the reader is leaving; the message stays uncommitted for the next owner.
      if (!client) throw new ClientGoneError('no client of this stream is connected here');
      // Asked again on every turn: a deletion may have come while an earlier write waited.
      if (!wanted || this.gone?.has(event!.user_id)) return;
      if (client.sink.closed) {
        this.remove(client);
        // Its successor gets the partition from further back, this message included, in order.
        if (this.readAgain(client, m)) return;
        continue;
      }
      if (alreadySeenIn(client.resumeAfter, m)) return;
      const written = this.writtenTo(client);
      if (written.has(m.partition, m.offset)) return;
      try {
        const data = JSON.stringify(event!.payload);
        await client.sink.send(event!.event_type, data, encodePosition(m));
        written.wrote(m.partition, m.offset, data.length);
        this.deps.lag.delivered(this.group, m.timestamp);
        return;
      } catch (err) {
        if (!(err instanceof ClientGoneError)) throw err;
        // The owner went away mid-write (here, or by another partition's write): its successor
        // reads the partition again from further back, or, with nothing to read again, gets this
        // message now.
        this.remove(client);
        if (this.readAgain(client, m)) return;
      }
    }
  };
}
