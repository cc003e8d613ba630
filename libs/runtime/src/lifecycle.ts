/**
 * The parts a service has started, stopped in the reverse order: what started last (HTTP) stops
 * first, so no request reaches a consumer, outbox or store that is already gone. A start that fails
 * halfway stops exactly the parts that had started.
 */
import type { Logger } from '@wellstream/logging';

export class Lifecycle {
  private readonly parts: { name: string; stop: () => Promise<void> }[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /** Registers how to stop a part that has just started. */
  onStop(name: string, stop: () => Promise<void> | void): void {
    this.parts.push({ name, stop: async () => stop() });
  }

  /** Registers a started part that stops itself (a subscription, a scheduler) and hands it back. */
  started<T extends { stop(): Promise<void> | void }>(name: string, part: T): T {
    this.onStop(name, () => part.stop());
    return part;
  }

  /**
   * Stops every part, last started first; a part that fails to stop does not keep the ones before
   * it running. Idempotent: the embedded platform may stop a service that already stopped itself.
   */
  stopAll(): Promise<void> {
    this.stopping ??= (async () => {
      let first: unknown;
      for (const part of [...this.parts].reverse()) {
        try {
          await part.stop();
        } catch (err) {
          this.logger.error('stop failed', { part: part.name, error: err });
          first ??= err;
        }
      }
      if (first !== undefined) throw first;
    })();
    return this.stopping;
  }
}
