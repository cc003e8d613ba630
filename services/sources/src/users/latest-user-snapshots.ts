/**
 * The newest snapshot of every user on the compacted `users` topic, read once to its end without
 * a consumer group (nothing committed, every replica reads it all): what the users service last
 * published of each user, including its copy of `sources`. From `fromTimestamp` on: only the users
 * whose newest snapshot was appended since then.
 */
import type { EventLog } from '@wellstream/bus';
import { decodeEvent, userEventsTopic, UserSnapshot } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';

export async function latestUserSnapshots(eventLog: EventLog, logger: Logger, fromTimestamp?: number): Promise<Map<string, UserSnapshot>> {
  const latest = new Map<string, UserSnapshot>();
  let caughtUp!: () => void;
  const done = new Promise<void>((resolve) => (caughtUp = resolve));
  const tail = await eventLog.tail({
    topic: userEventsTopic.spec.name,
    fromTimestamp,
    // One user's snapshots share a partition and come in order: the last read is the newest.
    handle: async (m) => {
      if (!m.value) return;
      try {
        const { user } = decodeEvent(userEventsTopic, m.value);
        latest.set(user.id, user);
      } catch (err) {
        logger.warn('skipping an unreadable users snapshot', { offset: m.offset, partition: m.partition, error: err });
      }
    },
    onCaughtUp: () => caughtUp(),
  });
  try {
    await done;
  } finally {
    await tail.stop();
  }
  return latest;
}
