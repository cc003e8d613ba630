/**
 * What one connection was written, per partition: the last offset (so a connection never goes
 * back in a user's events) and where its recent writes began (so what it may not have received
 * can be written again to the partition's next owner when it goes).
 *
 * A frame in the socket is not a frame the client read: it may sit in the kernel's buffers on
 * either end, or in a proxy's, when the connection ends. The group commits it all the same (a
 * commit per frame the client confirmed is not something SSE offers). So when a connection ends,
 * the partitions it held are read again from its first write of:
 * - the last IN_FLIGHT_MS (WELLSTREAM_STREAM_RESEND_WINDOW_MS), when the peer closed or was cut
 *   off, or the server shut down: what a reading client can have had on its way;
 * - the last UNREAD_BYTES, when the server dropped it for not reading: everything buffers can
 *   hold, however long it took to fill them.
 * Writes are kept as first offsets per partition, in a few buckets (not a list of every frame), so
 * a busy connection costs a handful of small maps, and an idle one none.
 */
export const IN_FLIGHT_MS = 5_000; // the default of WELLSTREAM_STREAM_RESEND_WINDOW_MS
/** Loopback's largest send and receive buffers (Linux: 4 and 6 MiB), a proxy's on top, rounded up. */
export const UNREAD_BYTES = 16 * 1024 * 1024;

/** Per partition, the first offset written in a span of writes. */
type FirstOffsets = Map<number, number>;
const NONE: ReadonlyMap<number, number> = new Map();

interface Recent {
  startedAt: number;
  lastAt: number;
  first: FirstOffsets;
}

export class ConnectionWrites {
  private readonly last = new Map<number, number>();
  /** Spans of a quarter of the in-flight window, the newest last; none older than the window. */
  private recent: Recent[] = [];
  /** By volume: the writes of the current UNREAD_BYTES, and of the ones before. */
  private current: FirstOffsets = new Map();
  private previous: ReadonlyMap<number, number> = NONE;
  private currentBytes = 0;

  /** The in-flight window is told apart in quarters. */
  private readonly spanMs: number;

  constructor(
    private readonly inFlightMs: number = IN_FLIGHT_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.spanMs = inFlightMs / 4;
  }

  /** Whether `offset` of `partition` was written here already (or something after it). */
  has(partition: number, offset: number): boolean {
    return (this.last.get(partition) ?? -1) >= offset;
  }

  wrote(partition: number, offset: number, bytes: number): void {
    this.last.set(partition, offset);
    const at = this.now();
    let span = this.recent[this.recent.length - 1];
    if (!span || at - span.startedAt >= this.spanMs) {
      this.recent = this.recent.filter((r) => r.lastAt >= at - this.inFlightMs);
      this.recent.push((span = { startedAt: at, lastAt: at, first: new Map() }));
    }
    span.lastAt = at;
    if (!span.first.has(partition)) span.first.set(partition, offset);
    if (!this.current.has(partition)) this.current.set(partition, offset);
    this.currentBytes += bytes;
    if (this.currentBytes >= UNREAD_BYTES) {
      this.previous = this.current;
      this.current = new Map();
      this.currentBytes = 0;
    }
  }

  /**
   * Per partition, the first offset of the writes this connection may not have received: those of
   * the last IN_FLIGHT_MS, or of the last UNREAD_BYTES (at least) when it was dropped for not
   * reading; at most `maxBack` before its last write there (a log reads no further back: MAX_REWIND).
   */
  unconfirmed(droppedForNotReading: boolean, maxBack: number): Map<number, number> {
    const since = this.now() - this.inFlightMs;
    const spans = droppedForNotReading ? [this.previous, this.current] : this.recent.filter((r) => r.lastAt >= since).map((r) => r.first);
    const from = new Map<number, number>();
    // Oldest first: a partition's first offset found is its earliest.
    for (const first of spans) {
      for (const [partition, offset] of first) {
        if (!from.has(partition)) from.set(partition, Math.max(offset, this.last.get(partition)! + 1 - maxBack));
      }
    }
    return from;
  }
}
