/**
 * The platform's log lines that mention any of a few words (a connection id, a provider user id),
 * kept while a case runs so that a case failing on a loaded CI machine says what the services did,
 * not only that a condition never held. `explain(err)` rethrows `err` with the lines appended.
 */
import { captureLogs } from '@wellstream/logging';

/** At most this many lines are kept (the newest): a chatty case cannot grow a failure without bound. */
const MAX_LINES = 300;

export interface LogWitness {
  /** Rethrows `err` with the kept lines in its message. */
  explain(err: unknown): never;
  stop(): void;
}

export function witnessLogs(...words: string[]): LogWitness {
  const watched = words.filter(Boolean);
  const kept: string[] = [];
  const stop = captureLogs((line) => {
    for (const w of watched) {
      if (!line.includes(w)) continue;
      kept.push(line);
      if (kept.length > MAX_LINES) kept.shift();
      return;
    }
  });
  return {
    explain(err) {
      stop();
      const message = `${err instanceof Error ? err.message : String(err)}\n--- platform log lines naming ${watched.join(', ')} (${kept.length}) ---\n${kept.join('\n')}`;
      const out = new Error(message);
      if (err instanceof Error && err.stack) out.stack = `${message}\n${err.stack.split('\n').slice(1).join('\n')}`;
      throw out;
    },
    stop,
  };
}
