/**
 * FerretDB on SQLite: one database is one file with one writer at a time. Writers that overlap
 * wait in SQLite's busy handler, which sleeps 1 to 100 ms between tries; queued here instead, each
 * write starts the moment the one before it is done, or LANE_HOLD_MS after that one started,
 * whichever comes first: a write stuck on an unreachable server (it fails after the server
 * selection timeout) must not hold every later one for as long.
 */
const LANE_HOLD_MS = 250;

export class WriteLane {
  private tail: Promise<void> = Promise.resolve();
  /** `holdMs`: how long one piece of work may hold the next; Infinity: until it is done (a read-modify-write that must not overlap another). */
  constructor(private readonly holdMs = LANE_HOLD_MS) {}

  run<R>(work: () => Promise<R>): Promise<R> {
    const result = this.tail.then(work);
    if (this.holdMs === Infinity) {
      this.tail = result.then(noop, noop);
      return result;
    }
    this.tail = this.tail.then(() => {
      let timer: NodeJS.Timeout | undefined;
      const held = new Promise<void>((release) => (timer = setTimeout(release, this.holdMs)));
      return Promise.race([result.then(noop, noop), held]).finally(() => clearTimeout(timer));
    });
    return result;
  }
}

const noop = (): void => undefined;

/** MongoDB: writes are not queued. */
export const NO_LANE: Pick<WriteLane, 'run'> = { run: (work) => work() };
