/**
 * Retention that ends: a user deleted more than WELLSTREAM_RETENTION_DAYS ago (default 2,557, seven
 * years) is erased everywhere, as an operator's erasure would, audited as `retention.swept` by every
 * service that removed something. The sweep runs on a timer, a few users per run (each erasure is
 * small slices in every service), and reads the clock it is given, so tests move it forward.
 */
import type { LifecycleDeps } from '../lifecycle.deps';
import { eraseUser } from '../erasure/erase-user.usecase';
import { ConcurrentUpdateError } from '../../users/user.repository';

/** Users erased per sweep run: a backlog drains over several runs instead of holding one. */
export const RETENTION_USERS_PER_RUN = 20;

export async function sweepRetention(deps: LifecycleDeps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - deps.retentionDays * 24 * 3600 * 1000).toISOString();
  const due = await deps.users.deletedBefore(cutoff, RETENTION_USERS_PER_RUN);
  let erased = 0;
  for (const user of due) {
    // Another replica's sweep may hold the same user: one conditional write (on the version read) decides who erases it.
    const claimed = await deps.users.replace(user, { write_id: `retention:${cutoff}` }).catch((err: unknown) => {
      if (err instanceof ConcurrentUpdateError) return null;
      throw err;
    });
    if (!claimed) continue;
    await eraseUser(deps, claimed, 'retention', 'system:retention');
    erased++;
  }
  return erased;
}

/** Runs the sweep every `intervalMs` (never two at once); stop() waits for a run in progress. */
export function startRetentionSweeper(deps: LifecycleDeps, intervalMs: number, onError: (err: unknown) => void): { stop(): Promise<void>; runNow(): Promise<number> } {
  let running: Promise<number> | undefined;
  const run = () => (running ??= sweepRetention(deps).finally(() => (running = undefined)));
  const timer = setInterval(() => void run().catch(onError), intervalMs);
  timer.unref();
  return {
    runNow: run,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
