/**
 * What a command may touch: its output streams, environment and a stop signal, passed in so the
 * whole CLI runs in-process in tests exactly as from a terminal, and its exit codes:
 * 0 done, 1 failed (server unreachable, refused, an event not delivered), 2 wrong usage.
 */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Ends long-running commands (listen, tail, replay) as Ctrl-C does. */
  signal?: AbortSignal;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A failure to report as one line and exit with `code`, never as a stack trace. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly code = EXIT_FAILURE,
  ) {
    super(message);
  }
}
