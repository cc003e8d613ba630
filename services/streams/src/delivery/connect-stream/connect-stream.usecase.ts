/**
 * Connecting a client to a stream: the client joins its stream's reader in this process (one
 * member of the stream's consumer group over the customer's slice of the events topic, whatever
 * the number of local clients; it never reads another customer's events). The log splits the
 * partitions (= users) between processes and the reader splits its share between its clients; each
 * event is written to its client and committed only once it is in the socket. When the client goes
 * away, its partitions pass to the other clients here, or back to the group once none is left
 * (at-least-once, in order per user).
 */
import type { Logger } from '@wellstream/logging';
import type { ConnectableStreams } from './connectable-streams';
import { streamNotFound, tooManyMembers } from '../../streams/stream.errors';
import { utcDayStart, EventFilter } from '../event-filter';
import type { LogPosition } from '../event-position';
import type { EventSink } from '../event-sink';
import type { CustomerQuota } from '../customer-quota';
import type { StreamMembers } from '../members/stream-members';
import type { StreamLag } from '../stream-lag';
import type { StreamReaders } from '../shared-reader/stream-readers';
import type { ConnectAdmission } from './connect-admission';
import { startPokeTimer } from '../poke-timer';
import type { Clock } from '@wellstream/clock';

export interface ConnectDeps {
  clock: Clock;
  streams: ConnectableStreams;
  readers: StreamReaders;
  members: StreamMembers;
  quota: CustomerQuota;
  admission: ConnectAdmission;
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
 * Checks everything that can fail with a 4xx or 503 before the event stream opens (too many
 * connections being set up at once here, unknown stream, member limit, the customer's connection
 * quota) and reserves this client's slots.
 */
export async function prepareStreamConnection(
  deps: ConnectDeps,
  customerId: string,
  streamId: string,
  resumeAfter: LogPosition[] | undefined,
): Promise<PendingConnection> {
  const admitted = deps.admission.enter();
  try {
    return await prepare(deps, customerId, streamId, resumeAfter);
  } finally {
    admitted();
  }
}

async function prepare(deps: ConnectDeps, customerId: string, streamId: string, resumeAfter: LogPosition[] | undefined): Promise<PendingConnection> {
  const stream = await deps.streams.find(customerId, streamId);
  if (!stream) throw streamNotFound(streamId);
  const { group } = stream;
  const release = reserveSlots(deps, customerId, group);
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
    attach: (sink) => attachClient(deps, sink, { streamId: stream._id, group, filter, resumeAfter, release }),
  };
}

/** Takes the customer's connection slot and the stream's member slot; returns their release (a closure over these few names only). */
function reserveSlots(deps: ConnectDeps, customerId: string, group: string): () => void {
  const releaseQuota = deps.quota.acquire(customerId, 'stream');
  const releaseMember = deps.members.reserve(group);
  return () => {
    releaseMember();
    releaseQuota();
    if (deps.members.localCount(group) === 0) deps.lag.forget(group);
  };
}

interface Attached {
  streamId: string;
  group: string;
  filter: EventFilter;
  resumeAfter: LogPosition[] | undefined;
  release: () => void;
}

/**
 * Kept apart from `prepare` so that what a connection holds for hours is only what it needs (a
 * closure keeps its whole scope alive): the stream's id and group, not its document.
 */
function attachClient(deps: ConnectDeps, sink: EventSink, a: Attached): void {
  const { streamId, group, release } = a;
  const poker = startPokeTimer(sink, deps.pokeIntervalMs, () => streamPoke(deps, streamId, group));
  const detach = deps.readers.attach(group, a.filter, { sink, resumeAfter: a.resumeAfter });
  sink.onClose(() => {
    poker.stop();
    // The client's partitions pass to the other clients here at once (or back to the group).
    detach();
    release();
  });
}

/** The poke's data, at once: the member count never waits for the store (stream-members.ts). */
function streamPoke(deps: ConnectDeps, streamId: string, group: string): string {
  return pokeData(deps, streamId, deps.members.cachedCountNow(group));
}

function pokeData(deps: ConnectDeps, streamId: string, count: number): string {
  return JSON.stringify({ ts: deps.clock.now().toISOString(), stream: streamId, members: { count, max: deps.maxMembers } });
}
