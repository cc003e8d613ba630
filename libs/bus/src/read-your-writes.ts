/**
 * Read-your-writes for a projection fed by a consumer group, decided by log positions rather than
 * by a guessed wait. A service that answers "unknown" from its projection may be answering a
 * caller who wrote that very thing a moment ago in another service (a user created, then its first
 * record posted). That write reached the log before the other service answered (its outbox
 * publishes before answering: libs/outbox `write(..., { publishWithinMs })`), so it lies before
 * the log's end as read *after* the lookup missed. Once the projection's group has handled up to
 * that end, a second lookup is the answer:
 *   - the group is level with the end (the normal case): no wait at all, one more lookup;
 *   - it is behind (a burst, a projection rebuilding, a consumer still joining): wait until it has
 *     handled what the log held then, never longer than `maxWaitMs`, then look again.
 * So an unknown key is refused at once on a platform that is caught up, and a key written a moment
 * ago is found whenever its write reached the log before the answer.
 */
import type { EventLog, GroupPosition } from './event-log.port';

export interface ReadYourWritesOptions {
  groupId: string;
  topic: string;
  /** The longest a lookup waits for a group that is behind; past it the lookup answers as it is. */
  maxWaitMs: number;
  /** Pause between position reads while waiting (default 10 ms, doubling up to 100 ms). */
  pollMs?: number;
  /** At most this many lookups wait at once; more are answered as they are (default 200). */
  maxWaiting?: number;
  /** A log that cannot say where it stands within this (an outage) gets no wait (default 2,000 ms). */
  positionsTimeoutMs?: number;
}

/** What the last catch-up did, for tests and metrics. */
export type CatchUp = 'level' | 'caught-up' | 'gave-up' | 'unknown';

export interface ReadYourWrites {
  /**
   * `read()`; when it finds nothing, waits until the group has handled what the log held just
   * after, and reads once more. Callers pass a lookup that is cheap and exact (an indexed get).
   */
  find<T>(read: () => Promise<T | null | undefined>): Promise<T | null | undefined>;
  /**
   * Waits until the group has handled what the log holds now (at most `maxWaitMs`), then reads:
   * for a lookup whose *content* must be fresh, not only its existence (a record that changes),
   * or for a writer that answers only once another service's projection has its write.
   */
  latest<T>(read: () => Promise<T>): Promise<T>;
  /** Counts by outcome since start (`level` means no wait happened). */
  readonly outcomes: Readonly<Record<CatchUp, number>>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True when every partition was handled up to its offset in `target`. */
export function reached(now: GroupPosition[], target: GroupPosition[]): boolean {
  const handled = new Map(now.map((p) => [p.partition, p.handled]));
  return target.every((t) => (handled.get(t.partition) ?? 0) >= t.end);
}

export function readYourWrites(log: Pick<EventLog, 'groupPositions'>, options: ReadYourWritesOptions): ReadYourWrites {
  const maxWaiting = options.maxWaiting ?? 200;
  const firstPause = options.pollMs ?? 10;
  const outcomes: Record<CatchUp, number> = { level: 0, 'caught-up': 0, 'gave-up': 0, unknown: 0 };
  let waiting = 0;

  /** Bounded by the deadline even when the log does not answer (a broker outage). */
  const positions = (deadline: number): Promise<GroupPosition[] | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const ms = Math.min(options.positionsTimeoutMs ?? 2_000, deadline - Date.now());
    return Promise.race([
      log.groupPositions(options.groupId, options.topic).catch(() => undefined),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), Math.max(1, ms)))),
    ]).finally(() => clearTimeout(timer));
  };

  const catchUp = async (): Promise<CatchUp> => {
    const deadline = Date.now() + options.maxWaitMs;
    const target = await positions(deadline);
    if (!target) return 'unknown';
    if (reached(target, target)) return 'level';
    if (waiting >= maxWaiting) return 'gave-up';
    waiting++;
    try {
      for (let pause = firstPause; Date.now() < deadline; pause = Math.min(pause * 2, 100)) {
        await sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
        const now = await positions(deadline);
        if (now && reached(now, target)) return 'caught-up';
      }
      return 'gave-up';
    } finally {
      waiting--;
    }
  };

  return {
    outcomes,
    async find(read) {
      const found = await read();
      if (found || options.maxWaitMs <= 0) return found;
      outcomes[await catchUp()]++;
      // Even when level: the group may have handled the write between the miss and the positions.
      return read();
    },
    async latest(read) {
      if (options.maxWaitMs > 0) outcomes[await catchUp()]++;
      return read();
    },
  };
}
