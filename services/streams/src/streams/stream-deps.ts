/**
 * What the stream resource use cases need: the repository, the event log (to pin a new stream's
 * group at the end of the topic) and the member counts (connected clients, across replicas).
 */
import type { EventLog } from '@wellstream/bus';
import type { StreamMembers } from '../delivery/members/stream-members';
import type { StreamRepository } from './stream.repository';
import type { Clock } from '@wellstream/clock';

export interface StreamDeps {
  repo: StreamRepository;
  eventLog: EventLog;
  members: StreamMembers;
  clock: Clock;
  /** A deleted stream leaves the connect path's cache at once. */
  forgetConnectable?(customerId: string, id: string): void;
}
