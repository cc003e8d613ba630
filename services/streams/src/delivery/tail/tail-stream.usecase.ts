/**
 * A read-only tail of a stream: the stream's events (its filters applied) from now, or from a
 * `Last-Event-ID`, to one client that only watches. It joins no consumer group, so it takes no user
 * from the stream's clients and no member slot, and commits nothing: it reads the customer's slice
 * of the log on its own, as a replay does, which is why a customer has only a few
 * (WELLSTREAM_TAIL_MAX_PER_CUSTOMER). Resuming starts RESUME_WINDOW_MS back and skips what the named
 * positions cover; events of partitions not named from that window may come again (at least once).
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import type { Clock } from '@wellstream/clock';
import { customerEventsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { StreamDoc } from '../../streams/stream';
import { streamNotFound } from '../../streams/stream.errors';
import type { CustomerQuota } from '../customer-quota';
import { EventFilter, matchesFilter, parseCustomerEvent, utcDayStart } from '../event-filter';
import { alreadySeenIn, encodePosition, LogPosition } from '../event-position';
import { ClientGoneError, EventSink } from '../event-sink';
import type { GoneUsersSource } from '../gone-users.port';
import { startPokeTimer } from '../poke-timer';

/** How far back a resumed tail reads (a client reconnecting after a drop is back within seconds). */
export const RESUME_WINDOW_MS = 5 * 60_000;

export interface TailDeps {
  clock: Clock;
  gone: GoneUsersSource;
  eventLog: EventLog;
  quota: CustomerQuota;
  logger: Logger;
  streams: { find(customerId: string, id: string): Promise<StreamDoc | null> };
  pokeIntervalMs: number;
}

export interface PreparedTail {
  streamId: string;
  filter: EventFilter;
  release: () => void;
}

/** 404 for a stream the customer does not have, 429 past the tail quota; before the event stream opens. */
export async function prepareTail(deps: TailDeps, customerId: string, streamId: string): Promise<PreparedTail> {
  const stream = await deps.streams.find(customerId, streamId);
  if (!stream) throw streamNotFound(streamId);
  const release = deps.quota.acquire(customerId, 'tail');
  const filter: EventFilter = {
    customerId,
    resources: stream.resource_filter,
    eventTypes: stream.event_type_filter,
    startTimeFromMs: stream.start_date ? utcDayStart(stream.start_date) : undefined,
  };
  return { streamId: stream._id, filter, release };
}

export function startTail(deps: TailDeps, tail: PreparedTail, resumeAfter: LogPosition[] | undefined, sink: EventSink): void {
  const { filter, streamId } = tail;
  const poker = startPokeTimer(sink, deps.pokeIntervalMs, () => JSON.stringify({ ts: deps.clock.now().toISOString(), stream: streamId, tail: true }));
  let subscription: Subscription | undefined;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    poker.stop();
    tail.release();
    void subscription?.stop().catch((err) => deps.logger.warn('stopping a stream tail failed', { error: err }));
  };
  sink.onClose(stop);
  const now = deps.clock.now().getTime();

  deps.gone
    .forCustomer(filter.customerId, true)
    .then((gone) =>
      deps.eventLog.tail({
        topic: customerEventsTopic.spec.name,
        tenant: filter.customerId,
        fromTimestamp: resumeAfter ? now - RESUME_WINDOW_MS : now,
        handle: async (m) => {
          if (sink.closed || stopped) throw new ClientGoneError();
          const event = parseCustomerEvent(m.value);
          if (!event || !matchesFilter(filter, event) || gone.has(event.user_id)) return;
          if (alreadySeenIn(resumeAfter, m)) return;
          await sink.send(event.event_type, JSON.stringify(event.payload), encodePosition(m));
        },
      }),
    )
    .then(
      (sub) => {
        subscription = sub;
        if (stopped) void sub.stop();
      },
      (err) => {
        stop();
        deps.logger.error('starting a stream tail failed', { error: err });
        sink.close('could not start the tail');
      },
    );
}
