/**
 * Cooperative time slicing for long reads (a replay, a stream catching up, a bulk clean-up): the
 * reader calls `pause()` after each unit of work. Once it has held the event loop for its slice it
 * yields, so HTTP requests, timers and other customers' readers get their turn. Reads that resolve
 * synchronously (a socket that accepts every write, a local SQLite read) would otherwise run as one
 * uninterrupted chain of microtasks for seconds.
 *
 * Yielding alone is not enough once the process is busy: a few readers taking turns keep it at
 * 100 % and every request waits behind their slices. So long reads share one budget per process:
 * together they may use BULK_SHARE of its time, and past that they rest (a timer, not a busy wait)
 * while requests run. A lone replay on an idle process is slowed by the same factor; that is the
 * price of never delaying another customer's request by more than a slice or two.
 *
 * A reader at the end of its log is `live`: its work follows what customers send now (a stream
 * delivering new records), not a stored history, so it never rests on the budget. It still yields
 * every slice, and its time still counts, so history readers rest longer while live work is heavy:
 * five replays of growing histories never delay today's records.
 *
 * History readers on behalf of one customer (a replay's tail, a REST read's pages) also give way to
 * requests being answered (answering-requests.ts); consumer groups (the platform's own pipeline)
 * do not: ingestion would otherwise slow its own delivery.
 */
import { performance } from 'node:perf_hooks';
import { answeringNow, giveWay } from './answering-requests';

export const DEFAULT_SLICE_MS = 2;
/** The share of a process's time that all long reads together may use. */
export const BULK_SHARE = 0.4;
/**
 * How much unused budget may be saved up (a burst after idling). Small on purpose: readers resumed
 * in the same turn of the loop run one after another, so the saved-up budget is how long they may
 * hold it together before the first of them rests (20 ms let five replays stall requests for 20+ ms).
 */
const BULK_BURST_MS = 4;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The process-wide budget of long reads, in ms of event-loop time (a token bucket). */
const bulk = { tokens: BULK_BURST_MS, at: performance.now() };
function refill(): void {
  const now = performance.now();
  bulk.tokens = Math.min(BULK_BURST_MS, bulk.tokens + (now - bulk.at) * BULK_SHARE);
  bulk.at = now;
}

/** Consumer-group members handling fewer messages a second than this never rest (lightUnitsPerSecond). */
export const GROUP_MEMBER_LIGHT_UNITS = 100;

export interface TimeSliceOptions {
  budgetMs?: number;
  /** A customer's history read: gives way to requests being answered (see above). */
  givesWay?: boolean;
  /**
   * A reader that has done fewer units of work than this in the current second is light: it
   * yields but never rests. A consumer group only a few seconds behind (its process was busy for
   * a moment) is history by the age of its messages, and resting it on the budget beside readers
   * with thousands to catch up made it fall further behind: in a reconnect storm, other customers'
   * streams on the surviving replica stalled for 24 s. What little it does cannot be what holds
   * the loop.
   */
  lightUnitsPerSecond?: number;
}

export class TimeSlice {
  private startedAt = 0;
  /** Set by an immediate armed at the start of a slice: the loop has turned since (the reader waited on I/O). */
  private turned = true;
  /** The reader has caught up with its log: it yields but does not rest (see above). */
  live = false;

  private readonly budgetMs: number;
  private readonly givesWay: boolean;
  private readonly lightUnits: number;
  private unitsThisSecond = 0;
  private secondStartedAt = 0;

  constructor(options: TimeSliceOptions = {}) {
    this.budgetMs = options.budgetMs ?? DEFAULT_SLICE_MS;
    this.givesWay = options.givesWay ?? false;
    this.lightUnits = options.lightUnitsPerSecond ?? 0;
  }

  /** Yields when this slice is used up (and rests while long reads are over their share); otherwise resolves at once. */
  async pause(): Promise<void> {
    const light = this.countUnit();
    // Time spent awaiting I/O (an idle reader, a slow socket) held nothing: start a new slice.
    if (this.turned) return this.arm();
    const used = performance.now() - this.startedAt;
    if (used < this.budgetMs) return;
    refill();
    bulk.tokens -= used;
    await yieldToEventLoop();
    for (let passed = false; !this.live && !light; ) {
      if (this.givesWay && !passed && answeringNow() > 0) passed = await giveWay();
      refill();
      if (bulk.tokens >= 0) break;
      await rest(Math.max(1, Math.ceil(-bulk.tokens / BULK_SHARE)));
    }
    this.arm();
  }

  /** Counts a unit of work; true while this reader is light (see lightUnitsPerSecond). */
  private countUnit(): boolean {
    if (this.lightUnits === 0) return false;
    const now = performance.now();
    if (now - this.secondStartedAt >= 1000) {
      this.secondStartedAt = now;
      this.unitsThisSecond = 0;
    }
    return ++this.unitsThisSecond <= this.lightUnits;
  }

  private arm(): void {
    this.turned = false;
    this.startedAt = performance.now();
    setImmediate(() => (this.turned = true));
  }
}
