/**
 * Replay: every event of the caller's organizations from the last 30 days, in log order, then the
 * live events as they come. No consumer group: each replay connection reads its customer's slice of
 * the events topic on its own (a group-less tail, whose cost follows that customer's events only),
 * nothing is committed, and every client gets the entire stream. The end
 * of the historical part is marked with an SSE comment (`: replay caught up`) followed by a poke.
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { customerEventsTopic, THIRTY_DAYS_MS } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import { matchesFilter, parseCustomerEvent, EventFilter } from '../event-filter';
import { alreadySeen, encodePosition } from '../event-position';
import { ClientGoneError, EventSink } from '../event-sink';
import type { CustomerQuota } from '../customer-quota';
import { startPokeTimer } from '../poke-timer';
import { ReplayPace } from './replay-pace';
import type { ReplayQuery } from './replay.schema';
import type { Clock } from '@wellstream/clock';
import type { GoneUsersSource } from '../gone-users.port';

export interface ReplayDeps {
  clock: Clock;
  /**
   * Deleted and erased users of a customer: their events are skipped (a deleted user's stay on the
   * log for its 30 days; an erased user's on Kafka until the next compaction).
   */
  gone: GoneUsersSource;
  eventLog: EventLog;
  quota: CustomerQuota;
  logger: Logger;
  pokeIntervalMs: number;
  /** Events per second one replay may send (its history and its live part alike). */
  eventsPerSecond: number;
}

/** Takes the customer's replay slot (429 past its quota) before the event stream opens. */
export function reserveReplay(deps: ReplayDeps, customerId: string): () => void {
  return deps.quota.acquire(customerId, 'replay');
}

/** `release` gives the replay slot back; called once, when the connection ends. */
export function startReplay(deps: ReplayDeps, customerId: string, query: ReplayQuery, sink: EventSink, release: () => void): void {
  const filter: EventFilter = {
    customerId,
    resources: query.resources,
    eventTypes: query.eventTypes,
    createdFromMs: query.createdFromMs,
  };
  // Pokes keep coming while a long scan finds nothing for this customer, and while idle.
  const poker = startPokeTimer(sink, deps.pokeIntervalMs, () => JSON.stringify({ ts: deps.clock.now().toISOString() }));
  const pace = new ReplayPace(deps.eventsPerSecond);
  let subscription: Subscription | undefined;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    poker.stop();
    // The slot follows the connection: a client that reconnects at once is not refused while the
    // old reader winds down (which is bounded: it reads no more once stopping).
    release();
    void subscription?.stop().catch((err) => deps.logger.warn('stopping a replay failed', { error: err }));
  };
  sink.onClose(stop);

  // Fresh: a replay started after a DELETE answered knows the user.
  deps.gone
    .forCustomer(customerId, true)
    .then((gone) =>
      deps.eventLog.tail({
      topic: customerEventsTopic.spec.name,
      tenant: customerId,
      fromTimestamp: deps.clock.now().getTime() - THIRTY_DAYS_MS,
      handle: async (m) => {
        if (sink.closed || stopped) throw new ClientGoneError();
        const event = parseCustomerEvent(m.value);
        if (!event || !matchesFilter(filter, event) || gone.has(event.user_id)) return;
        if (alreadySeen(query.resumeAfter, m)) return;
        await pace.take();
        // Asked again after the pause: a deletion may have come while this event waited.
        if (gone.has(event.user_id)) return;
        await sink.send(event.event_type, JSON.stringify(event.payload), encodePosition(m));
      },
      onCaughtUp: () => {
        sink.comment('replay caught up');
        poker.pokeNow();
      },
    }),
    )
    .then(
      (sub) => {
        subscription = sub;
        if (stopped) void sub.stop();
      },
      (err) => {
        release();
        deps.logger.error('starting a replay failed', { error: err });
        sink.close('could not start the replay');
      },
    );
}
