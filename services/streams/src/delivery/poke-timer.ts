/**
 * The one timer a connection has: sends `poke` whenever `intervalMs` passes without another
 * frame. Instead of re-arming on every event it wakes once per interval and checks the sink's last
 * write time, so busy connections cost no timer work per event.
 */
import type { EventSink } from './event-sink';

export interface PokeTimer {
  /** Sends a poke now (e.g. when a replay has caught up). */
  pokeNow(): void;
  stop(): void;
}

export function startPokeTimer(sink: EventSink, intervalMs: number, payload: () => Promise<string> | string): PokeTimer {
  let stopped = false;
  const poke = () => {
    Promise.resolve()
      .then(payload)
      .then((data) => {
        if (!stopped && !sink.closed) sink.heartbeat('poke', data);
      })
      .catch(() => {
        /* a poke is best-effort; the next interval tries again */
      });
  };
  const tick = () => {
    if (stopped || sink.closed) return;
    const idle = Date.now() - sink.lastWriteAt;
    // Small tolerance: timers may fire a few ms early relative to Date.now().
    if (idle >= intervalMs - 10) {
      poke();
      timer = setTimeout(tick, intervalMs);
    } else {
      timer = setTimeout(tick, intervalMs - idle);
    }
  };
  let timer = setTimeout(tick, intervalMs);
  return {
    pokeNow: poke,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
