/**
 * The shared body of every distributed main.ts: start, report, stop cleanly on SIGINT/SIGTERM,
 * and exit with a clear message (never a stack trace for a config error).
 *
 * Stopping (a container being replaced) is bounded: HTTP stops taking requests and ends stream
 * clients first (they reconnect elsewhere with Last-Event-ID), then consumers commit and leave their
 * groups, the outbox flushes, the stores close (Lifecycle, reverse start order). Should a part hang,
 * the process still exits after WELLSTREAM_STOP_TIMEOUT_MS (default 25 s, below the 30 s grace
 * period docker-compose.yml and the Kubernetes manifests give), with code 1 and the reason logged:
 * an orchestrator's SIGKILL would say nothing.
 */
import { ConfigError } from '@wellstream/config';
import { createLogger } from '@wellstream/logging';
import type { RunningService } from './running-service';

const DEFAULT_STOP_TIMEOUT_MS = 25_000;

export function stopTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.WELLSTREAM_STOP_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_STOP_TIMEOUT_MS;
}

export function runServiceMain(name: string, start: () => Promise<RunningService>): void {
  const logger = createLogger(name);
  // (A config error thrown synchronously by start() lands in the same catch as an asynchronous one.)
  Promise.resolve()
    .then(start)
    .then((svc) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        const started = Date.now();
        const timeoutMs = stopTimeoutMs();
        logger.info('stopping', { signal });
        setTimeout(() => {
          logger.error('stop did not finish in time, exiting', { timeoutMs });
          process.exit(1);
        }, timeoutMs).unref();
        svc.stop().then(
          () => {
            logger.info('stopped', { ms: Date.now() - started });
            process.exit(0);
          },
          (err) => {
            logger.error('stop failed', { error: err });
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
      // Announced once a signal would be handled: whoever waits for this line may stop us at once.
      logger.info('service ready', { url: svc.url });
    })
    .catch((err) => {
      if (err instanceof ConfigError) console.error(`[${name}] ${err.message}`);
      else logger.error('failed to start', { error: err, stack: (err as Error)?.stack });
      process.exit(1);
    });
}
