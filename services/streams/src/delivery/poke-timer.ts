/**
 * Pokes: a `poke` frame on each connection whenever `intervalMs` passes without another frame.
 * All connections with the same interval share one timer wheel: a connection sits in the slot of
 * the moment it may next be due, is looked at once then (poked, or moved to its real due time
 * after a recent write), and costs an entry in a slot rather than a timer and its closures, so
 * fifteen thousand idle connections cost one timer firing fifty times per interval.
 */
import type { EventSink } from './event-sink';

export interface PokeTimer {
  /** Sends a poke now (e.g. when a replay has caught up). */
  pokeNow(): void;
  stop(): void;
}

/** A class, not closures: fifteen thousand of them are held, so each should be one small object. */
class Entry implements PokeTimer {
  stopped = false;

  constructor(
    readonly sink: EventSink,
    private readonly payload: () => Promise<string> | string,
    private readonly wheel: PokeWheel,
  ) {}

  pokeNow(): void {
    if (this.stopped) return;
    let data: Promise<string> | string;
    try {
      data = this.payload();
    } catch {
      return; // a poke is best-effort; the next interval tries again
    }
    // Usually at hand: written at once, without the promises a wheel slot of 300 pokes would make.
    if (typeof data === 'string') return this.write(data);
    data.then((d) => this.write(d)).catch(() => {
      /* best-effort, as above */
    });
  }

  private write(data: string): void {
    if (!this.stopped && !this.sink.closed) this.sink.heartbeat('poke', data);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.wheel.removed();
  }
}

/**
 * Fifty slots per interval: at 15,000 connections and 5 s, a slot holds 300 pokes (a few ms of
 * work) rather than 1,500 at once, which would hold back deliveries by tens of milliseconds.
 */
const SLOTS_PER_INTERVAL = 50;

class PokeWheel {
  private readonly slots = new Map<number, Entry[]>();
  private readonly tickMs: number;
  private timer?: NodeJS.Timeout;
  private size = 0;

  constructor(private readonly intervalMs: number) {
    this.tickMs = Math.max(10, Math.floor(intervalMs / SLOTS_PER_INTERVAL));
  }

  add(entry: Entry): void {
    this.place(entry, entry.sink.lastWriteAt + this.intervalMs);
    this.size++;
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.tickMs);
      this.timer.unref();
    }
  }

  removed(): void {
    if (--this.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Slots are numbered by tick; a due time goes to the first slot at or after it. */
  private place(entry: Entry, dueAt: number): void {
    const slot = Math.ceil(dueAt / this.tickMs);
    const list = this.slots.get(slot);
    if (list) list.push(entry);
    else this.slots.set(slot, [entry]);
  }

  private tick(): void {
    const now = Date.now();
    const current = Math.floor(now / this.tickMs);
    for (const [slot, entries] of this.slots) {
      if (slot > current) continue;
      this.slots.delete(slot);
      for (const e of entries) {
        if (e.stopped) continue;
        if (e.sink.closed) {
          e.stop();
          continue;
        }
        const idle = now - e.sink.lastWriteAt;
        // Small tolerance: timers may fire a few ms early relative to Date.now().
        if (idle >= this.intervalMs - 10) {
          e.pokeNow();
          this.place(e, now + this.intervalMs);
        } else {
          this.place(e, e.sink.lastWriteAt + this.intervalMs);
        }
      }
    }
  }
}

const wheels = new Map<number, PokeWheel>();

export function startPokeTimer(sink: EventSink, intervalMs: number, payload: () => Promise<string> | string): PokeTimer {
  let wheel = wheels.get(intervalMs);
  if (!wheel) wheels.set(intervalMs, (wheel = new PokeWheel(intervalMs)));
  const entry = new Entry(sink, payload, wheel);
  wheel.add(entry);
  return entry;
}
