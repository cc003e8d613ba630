/**
 * Cooperative time slicing for long reads (a replay, a stream catching up, a bulk clean-up): the
 * reader calls `pause()` after each unit of work, and once it has held the event loop for its
 * budget it yields (setImmediate), so HTTP requests, timers and other readers of other customers
 * get their turn. Reads that resolve synchronously (a socket that accepts every write, a local
 * SQLite read) would otherwise run as one uninterrupted chain of microtasks for seconds.
 */
import { performance } from 'node:perf_hooks';

export const DEFAULT_SLICE_MS = 4;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class TimeSlice {
  private startedAt = performance.now();

  constructor(private readonly budgetMs = DEFAULT_SLICE_MS) {}

  /** Yields when this slice is used up; otherwise resolves at once. */
  async pause(): Promise<void> {
    if (performance.now() - this.startedAt < this.budgetMs) return;
    await yieldToEventLoop();
    this.startedAt = performance.now();
  }
}
