/**
 * The one way domain and use-case code asks what time it is. Composition roots hand in the system
 * clock; tests hand in one they move by hand, so time-dependent rules are tested without waiting.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: for tests and benches. */
export function manualClock(start: Date | number | string): Clock & { set(at: Date | number | string): void; advance(ms: number): void } {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    set: (to) => {
      at = new Date(to).getTime();
    },
    advance: (ms) => {
      at += ms;
    },
  };
}
