/**
 * Background wiring without React Native: whatever wakes the app (HealthKit background delivery
 * through the bridge's `subscribeToChanges`, an Android periodic task, a push) calls the returned
 * function; wake-ups that come while a sync runs are folded into one more sync after it.
 */
import type { WellstreamMobile } from './engine';

export function syncOnWake(mobile: Pick<WellstreamMobile, 'sync'>, onError: (error: unknown) => void = () => undefined): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const run = async (): Promise<void> => {
    do {
      again = false;
      await mobile.sync().then(
        () => undefined,
        (error: unknown) => onError(error),
      );
    } while (again);
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => (running = undefined));
    return running;
  };
}
