/**
 * Whether a poll round reads a resource: every round, unless its adapter says it needs reading at
 * most so often (its changes are notified, or it changes about daily) and the last poll that read
 * it is more recent than that. Polls are what spend a provider's daily request budget, so reading
 * only what can have changed unnoticed keeps a day of polling per user small.
 */
import type { ResourceSpec } from '../providers/provider.port';

/** `syncedUntil`: the end of the last poll (or backfill) of this resource; absent before the first. */
export function pollDue(spec: ResourceSpec, syncedUntil: string | null | undefined, now: Date): boolean {
  if (!spec.pollAtMostEveryMs || !syncedUntil) return true;
  return now.getTime() - Date.parse(syncedUntil) >= spec.pollAtMostEveryMs;
}
