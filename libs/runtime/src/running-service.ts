/**
 * What a composed service hands back to whoever started it (its own main.ts, or the embedded
 * platform that runs all of them in one process).
 */
export interface RunningService {
  name: string;
  url: string;
  port: number;
  /**
   * The service's request handler (its express app), for a gateway in the same process: it can hand
   * a request over without a loopback HTTP hop (one socket per client instead of three).
   */
  handler?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: (err?: unknown) => void) => void;
  stop(): Promise<void>;
}

/** Things the embedded platform shares between services running in one process. */
export interface SharedInfra {
  /** One embedded log instance for the whole process (an SQLite file has one writer). */
  eventLog?: import('@wellstream/bus').EventLog;
  /** Wraps each service's document store (tests: the hot-path query guard records queries). */
  observeStore?: (service: string, store: import('@wellstream/store').DocumentStore) => import('@wellstream/store').DocumentStore;
  /** The clock time-dependent sweeps read (tests move it forward; default the system clock). */
  clock?: import('@wellstream/clock').Clock;
}
