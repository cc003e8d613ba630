/**
 * History, one request at a time: each backfill run fetches one page of the first resource whose
 * history is not in, hands its records over with the progress they make (the window's end, or the
 * provider's cursor inside the window), and puts itself back. So a history always makes progress
 * whatever the budget allows (a page is the smallest step, and an interrupted window resumes at its
 * cursor), live and poll jobs run between any two of its requests, and a resource's
 * `backfill_completed` goes out with its last page, only once its whole history is fetched.
 */
import type { SourceConnectionAction } from '@wellstream/contracts';
import { backfillProgress, Connection } from '../connections/connection';
import type { Extra } from '../connections/connection-events';
import { ProviderError } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { Logger } from '@wellstream/logging';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { ProjectedUser } from '../users/user-projection';
import { commit, CommitDeps } from './commit-progress';
import { fetchPage } from './fetch-resource';
import type { TokenKeeper } from './token-keeper';

export interface BackfillStepDeps extends CommitDeps {
  keeper: TokenKeeper;
}

export interface SkipBackfillDeps {
  connections: ConnectionRepository;
  logger: Logger;
}

const DAY_MS = 24 * 3600 * 1000;

const pending = (provider: Provider, c: Connection) =>
  provider.adapter.resources.find((r) => {
    const p = c.resources[r.name];
    return p && p.backfill_done_until < p.backfill_end;
  });

const windowEnd = (start: number, days: number, last: string) => new Date(Math.min(start + days * DAY_MS, Date.parse(last)));

/** One page of history; false once every resource's history is in. */
export async function backfillStep(deps: BackfillStepDeps, provider: Provider, c: Connection, user: ProjectedUser): Promise<boolean> {
  const spec = pending(provider, c);
  if (!spec) return false;
  const name = spec.name;
  const p = c.resources[name];
  const start = new Date(p.backfill_done_until);
  const end = windowEnd(start.getTime(), spec.maxWindowDays, p.backfill_end);
  const cursor = p.backfill_cursor ?? undefined;
  const page = await fetchPage(deps.keeper, provider, c, user, name, start, end, cursor, 'history');
  if (page.nextCursor) {
    if (page.nextCursor === cursor) throw new ProviderError('bad_response', `${provider.type} named the same page of ${name} again`);
    await commit(deps, c._id, page.records, { [`resources.${name}.backfill_cursor`]: page.nextCursor });
    return true;
  }
  const done = end.toISOString() >= p.backfill_end;
  const set: Record<string, unknown> = { [`resources.${name}.backfill_done_until`]: end.toISOString(), [`resources.${name}.backfill_cursor`]: null };
  if (done && !p.synced_until) set[`resources.${name}.synced_until`] = p.backfill_end;
  const next = { ...c, resources: { ...c.resources, [name]: { ...p, backfill_done_until: end.toISOString(), backfill_cursor: null } } };
  // One announcement per write: users applies a connection's events in order of their time, and
  // two of the same instant would look like a repeat. A completion carries the progress too.
  const events: [SourceConnectionAction, Extra][] = done ? [['backfill_completed', { resource: name, range: { start: p.backfill_start, end: p.backfill_end } }]] : [['backfill_progress', {}]];
  await commit(deps, c._id, page.records, set, events);
  return backfillProgress(next)?.state !== 'done';
}

/** After repeated unreadable answers: the window is given up (logged) so later ones are not blocked. */
export async function skipBackfillWindow(deps: SkipBackfillDeps, provider: Provider, c: Connection): Promise<void> {
  const spec = pending(provider, c);
  if (!spec) return;
  const p = c.resources[spec.name];
  const end = windowEnd(Date.parse(p.backfill_done_until), spec.maxWindowDays, p.backfill_end).toISOString();
  deps.logger.error('backfill window skipped after repeated unreadable answers', { connection_id: c._id, resource: spec.name, start: p.backfill_done_until, end });
  await deps.connections.update(c._id, { $set: { [`resources.${spec.name}.backfill_done_until`]: end, [`resources.${spec.name}.backfill_cursor`]: null } });
}
