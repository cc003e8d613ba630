/**
 * The shared body of every distributed main.ts: start, report, stop cleanly on SIGINT/SIGTERM,
 * and exit with a clear message (never a stack trace for a config error).
 */
import { ConfigError } from '@wellstream/config';
import { createLogger } from '@wellstream/logging';
import type { RunningService } from './running-service';

export function runServiceMain(name: string, start: () => Promise<RunningService>): void {
  const logger = createLogger(name);
  start()
    .then((svc) => {
      logger.info('service ready', { url: svc.url });
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info('stopping', { signal });
        svc.stop().then(
          () => process.exit(0),
          (err) => {
            logger.error('stop failed', { error: err });
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
    })
    .catch((err) => {
      if (err instanceof ConfigError) console.error(`[${name}] ${err.message}`);
      else logger.error('failed to start', { error: err, stack: (err as Error)?.stack });
      process.exit(1);
    });
}
