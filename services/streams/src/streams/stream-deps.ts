/**
 * What the stream resource use cases need: the repository, the event log (to pin a new stream's
 * group at the end of the topic) and the member counter (connected clients).
 */
import type { EventLog } from '@wellstream/bus';
import type { MemberCounter } from '../delivery/member-counter';
import type { StreamRepository } from './stream.repository';
import type { Clock } from '@wellstream/clock';

export interface StreamDeps {
  repo: StreamRepository;
  eventLog: EventLog;
  members: MemberCounter;
  clock: Clock;
}
