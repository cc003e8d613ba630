/**
 * Connecting a client to a stream: the client becomes one member of the stream's consumer group
 * over its customer's slice of the events topic (it never reads another customer's events).
 * The log hands each member a share of the partitions (= users), rebalancing as members come and
 * go; each event is written to this client and committed only once it is in the socket. Events
 * the stream's filters leave out are committed without a write. When the client goes away, its
 * uncommitted events go to the next owner of the partition (at-least-once, in order per user).
 */
import type { EventLog, LogMessage, Subscription } from '@wellstream/bus';
import { customerEventsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { StreamRepository } from '../../streams/stream.repository';
import { streamNotFound, tooManyMembers } from '../../streams/stream.errors';
import { utcDayStart, matchesFilter, parseCustomerEvent, EventFilter } from '../event-filter';
import { alreadySeen, encodePosition, LogPosition } from '../event-position';
import { ClientGoneError, EventSink } from '../event-sink';
import type { CustomerQuota } from '../customer-quota';
import type { MemberCounter } from '../member-counter';
import type { StreamLag } from '../stream-lag';
import { startPokeTimer } from '../poke-timer';
import type { Clock } from '@wellstream/clock';

export interface ConnectDeps {
  clock: Clock;
  /** Erased users: their events are skipped (on Kafka they stay until the next compaction). */
  erased?: { has(userId: string): boolean };
  repo: StreamRepository;
  eventLog: EventLog;
  members: MemberCounter;
  quota: CustomerQuota;
  lag: StreamLag;
  logger: Logger;
  maxMembers: number;
  pokeIntervalMs: number;
}

export interface PendingConnection {
  /** Starts delivery to the opened event stream; ends when the sink closes. */
  attach(sink: EventSink): void;
  /** Gives the reserved member slot back (when the stream could not be opened). */
  cancel(): void;
}

/**
 * Checks everything that can fail with a 4xx before the event stream opens (unknown stream, member
 * limit, the customer's connection quota) and reserves this client's slots.
 */
export async function prepareStreamConnection(
  deps: ConnectDeps,
  customerId: string,
  streamId: string,
  resumeAfter: LogPosition | undefined,
): Promise<PendingConnection> {
  const stream = await deps.repo.findOfCustomer(customerId, streamId);
  if (!stream) throw streamNotFound(streamId);
  const { group } = stream;
  const releaseQuota = deps.quota.acquire(customerId, 'stream');
  const releaseMember = deps.members.reserve(group);
  const release = () => {
    releaseMember();
    releaseQuota();
    if (deps.members.localCount(group) === 0) deps.lag.forget(group);
  };
  try {
    // The reservation already counts this client, hence ">".
    if ((await deps.members.count(group)) > deps.maxMembers) {
      throw tooManyMembers(deps.maxMembers, Math.max(1, Math.ceil(deps.pokeIntervalMs / 1000)));
    }
  } catch (err) {
    release();
    throw err;
  }

  const filter: EventFilter = {
    customerId,
    resources: stream.resource_filter,
    eventTypes: stream.event_type_filter,
    startTimeFromMs: stream.start_date ? utcDayStart(stream.start_date) : undefined,
  };

  return {
    cancel: release,
    attach(sink) {
      let subscription: Subscription | undefined;
      let stopped = false;
      const poker = startPokeTimer(sink, deps.pokeIntervalMs, async () =>
        JSON.stringify({
          ts: deps.clock.now().toISOString(),
          stream: stream._id,
          members: { count: await deps.members.cachedCount(group), max: deps.maxMembers },
        }),
      );
      const stop = () => {
        if (stopped) return;
        stopped = true;
        poker.stop();
        // Leaving the group hands this client's partitions (and uncommitted events) to the others.
        const leaving = subscription?.stop();
        void Promise.resolve(leaving)
          .catch((err) => deps.logger.warn('leaving a stream group failed', { stream: stream._id, error: err }))
          .finally(release);
      };
      sink.onClose(stop);

      const handle = async (m: LogMessage) => {
        // Throwing leaves the event uncommitted; the subscription is being stopped, so it moves on.
        if (sink.closed || stopped) throw new ClientGoneError();
        const event = parseCustomerEvent(m.value);
        if (!event || !matchesFilter(filter, event) || deps.erased?.has(event.user_id)) return;
        if (alreadySeen(resumeAfter, m)) return;
        await sink.send(event.event_type, JSON.stringify(event.payload), encodePosition(m));
        deps.lag.delivered(group, m.timestamp);
      };

      deps.eventLog
        .consume({ topic: customerEventsTopic.spec.name, tenant: customerId, groupId: group, fromBeginning: false, handle })
        .then(
          (sub) => {
            subscription = sub;
            if (stopped) {
              void sub.stop().finally(release);
            }
          },
          (err) => {
            deps.logger.error('joining a stream group failed', { stream: stream._id, error: err });
            sink.close('could not join the stream');
          },
        );
    },
  };
}
