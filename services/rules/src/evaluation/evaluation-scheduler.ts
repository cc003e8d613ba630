/**
 * Runs the periodic evaluation pass (missing data is only noticed by looking again, without new
 * data arriving). Runs never overlap; stop() waits for a running pass.
 */
import type { Logger } from '@wellstream/logging';

export interface Scheduler {
  stop(): Promise<void>;
}

export function startScheduler(options: { intervalMs: number; run: () => Promise<void>; logger: Logger }): Scheduler {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = options
      .run()
      .catch((err) => {
        options.logger.error('scheduled rule evaluation failed', { error: err });
      })
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
