/**
 * One run of one sync job: the queued revoke of an ended connection, a live fetch a notification
 * asked for, a poll round, or one page of backfill. Records go out through the outbox with the
 * progress they make; failures are sorted by what they mean (ProviderError kinds): a revoked grant
 * expires the connection and stops it, a rate limit pauses the provider's application (a 429) and
 * waits as asked, a temporary failure backs off and never expires anything, an answer we cannot
 * read fails this window with a logged, typed error and leaves the connection usable.
 */
import type { SourceConnectionAction } from '@wellstream/contracts';
import type { Connection } from '../connections/connection';
import { connectionMessage } from '../connections/connection-events';
import { isProviderError, ProviderError } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { ProjectedUser } from '../users/user-projection';
import { endConnection, EndConnectionDeps } from '../connections/disconnect.usecase';
import type { UserProjectionRepository } from '../users/user-projection.repository';
import { backfillStep, skipBackfillWindow } from './backfill-step';
import { commit } from './commit-progress';
import { providerConfirmsAccessEnded } from './confirm-access-ended';
import { fetchObjects, fetchResource } from './fetch-resource';
import { followPermissions } from './follow-permissions';
import { runRevoke, RunRevokeDeps } from './pending-revoke';
import { pollDue } from './poll-due';
import { pollEvery, PollEveryDeps } from './poll-interval';
import { backoffMs, SyncJob } from './sync-job';
import type { TokenKeeper } from './token-keeper';

const DAY_MS = 24 * 3600 * 1000;
/** Polls ask again from this long before the last sync: providers finalize a day's data late. */
const POLL_OVERLAP_MS = DAY_MS;
/** Tries of one window before an unreadable answer is given up on (logged) and the job moves on. */
const MAX_BAD_RESPONSES = 3;

export interface SyncDeps extends EndConnectionDeps, RunRevokeDeps, PollEveryDeps {
  users: UserProjectionRepository;
  keeper: TokenKeeper;
}

export async function runSyncJob(deps: SyncDeps, job: SyncJob): Promise<void> {
  if (job.kind === 'revoke') return runRevoke(deps, job);
  const c = await deps.connections.byId(job.connection_id);
  const provider = c ? deps.registry.get(c.source_type) : undefined;
  if (!c || !provider || c.status === 'auth_expired') return deps.jobs.finish(job);
  const user = await deps.users.byId(c.user_id);
  if (!user || user.status === 'deleted') return deps.jobs.finish(job);
  const now = deps.clock.now();
  if (user.status === 'suspended') return deps.jobs.again(job, new Date(now.getTime() + deps.pollIntervalMs), false);
  try {
    if (job.kind === 'live') {
      if (job.access_check && (await accessWithdrawn(deps, provider, c, job.access_check.reason))) return;
      if (job.permissions_check) await followPermissions(deps, provider, c);
      const current = (await deps.connections.byId(c._id)) ?? c;
      for (const [resource, ids] of Object.entries(job.objects ?? {})) {
        if (ids.length > 0 && permitted(provider, current, resource)) await commit(deps, c._id, await fetchObjects(deps.keeper, provider, c, user, resource, ids), {});
      }
      for (const [resource, w] of Object.entries(job.windows ?? {})) {
        if (permitted(provider, current, resource)) await syncWindow(deps, provider, c, user, resource, new Date(w.start), new Date(w.end), 'live');
      }
      return await deps.jobs.finish(job);
    }
    if (job.kind === 'poll') {
      for (const r of provider.adapter.resources) {
        const p = c.resources[r.name];
        if (!pollDue(r, p?.synced_until, now) || !permitted(provider, c, r.name)) continue;
        const from = p ? Date.parse(p.synced_until ?? p.backfill_end) - POLL_OVERLAP_MS : now.getTime() - POLL_OVERLAP_MS;
        await syncWindow(deps, provider, (await deps.connections.byId(c._id)) ?? c, user, r.name, new Date(from), now, 'poll');
      }
      return await deps.jobs.again(job, new Date(now.getTime() + (await pollEvery(deps, provider))), false);
    }
    const more = await backfillStep(deps, provider, c, user);
    return more ? await deps.jobs.again(job, now, false) : await deps.jobs.finish(job);
  } catch (err) {
    await failed(deps, provider, job, err);
  }
}

async function syncWindow(deps: SyncDeps, provider: Provider, c: Connection, user: ProjectedUser, resource: string, start: Date, end: Date, why: 'live' | 'poll'): Promise<void> {
  if (start >= end) return;
  const records = await fetchResource(deps.keeper, provider, c, user, resource, start, end, why);
  const progress = c.resources[resource];
  const until = progress && (progress.synced_until ?? '') > end.toISOString() ? progress.synced_until : end.toISOString();
  // A live window may lie in the past; only polls (which cover up to now) move synced_until.
  await commit(deps, c._id, records, why === 'poll' && progress ? { [`resources.${resource}.synced_until`]: until } : {});
}

/**
 * An unsigned notification said the user withdrew our access: the connection ends (nothing left to
 * revoke) only when the provider refuses the user's token; otherwise the notice is logged as not
 * the provider's and the connection goes on.
 */
async function accessWithdrawn(deps: SyncDeps, provider: Provider, c: Connection, reason: string): Promise<boolean> {
  if (!(await providerConfirmsAccessEnded(deps.keeper, provider, c))) {
    deps.logger.warn('a notification said access was withdrawn, but the provider still accepts the token: ignored', { connection_id: c._id, source_type: c.source_type });
    return false;
  }
  await endConnection(deps, c, reason, { revoke: false });
  return true;
}

async function failed(deps: SyncDeps, provider: Provider, job: SyncJob, err: unknown): Promise<void> {
  const now = deps.clock.now();
  const c = await deps.connections.byId(job.connection_id);
  if (!c) return deps.jobs.finish(job);
  const later = (ms: number, counts: boolean) => deps.jobs.again(job, new Date(now.getTime() + ms), counts);
  if (!isProviderError(err)) {
    deps.logger.error('sync failed', { connection_id: c._id, kind: job.kind, error: err });
    return later(backoffMs(job.attempts), true);
  }
  const log = { connection_id: c._id, source_type: c.source_type, job: job.kind, kind: err.kind, status: err.details.status, error: err.message };
  switch (err.kind) {
    case 'auth_revoked': {
      // A notice that the user withdrew access (unsigned, so waiting for its check) is confirmed
      // by this refusal as its own check would be: the connection ends as the notice said, rather
      // than waiting for a reconnect with the notice's check dropped with the other jobs.
      const notice = job.access_check ?? (await deps.jobs.accessCheckOf(c._id));
      if (notice) {
        deps.logger.info('provider refused the grant a notice said was withdrawn: connection ended', log);
        return endConnection(deps, c, notice.reason, { revoke: false });
      }
      deps.logger.warn('provider authorization ended: connection is auth_expired', log);
      await setStatus(deps, c, 'auth_expired', 'auth_expired', `The provider no longer accepts this connection's authorization (${err.message}). Reconnect to resume.`);
      await deps.jobs.removeFor(c._id);
      return;
    }
    case 'rate_limited': {
      const wait = Math.max(1000, err.details.retryAfterMs ?? 60_000);
      // The provider's own answer (its adapter read the wait from its documented headers): no
      // replica sends it anything before then. Our own budget's refusals pause nothing.
      if (err.details.status === 429) await provider.http.pause(wait).catch((e) => deps.logger.warn('could not record the provider\'s pause', { ...log, error: e }));
      deps.logger.info('provider rate limit: waiting', { ...log, retry_after_ms: wait });
      return later(wait, false);
    }
    case 'consent_missing':
      if (provider.adapter.fetchMissingPermissions) {
        // A provider that says which permissions the user shares is asked: a withdrawn one becomes
        // the connection's missing_permissions (what the marketplace tells the user) and its
        // resources are no longer read. A refusal that no missing permission explains counts as a
        // failure, so three of them still show the connection in error.
        deps.logger.info('the provider refused a read: asking it which permissions the user shares', log);
        await deps.jobs.schedule(c._id, 'live', now, undefined, { permissions_check: true });
        await noteFailure(deps, c, err.message);
        return later(deps.pollIntervalMs, false);
      }
      deps.logger.warn('the user must act at the provider', log);
      await setStatus(deps, c, 'error', 'status', err.message);
      return later(deps.pollIntervalMs, false);
    case 'bad_response':
      deps.logger.error('provider answered something unreadable: this sync failed', log);
      if (job.attempts + 1 >= MAX_BAD_RESPONSES) {
        // Give the window up rather than block every later one behind it; the log names it.
        await noteFailure(deps, c, err.message);
        if (job.kind === 'backfill') await skipBackfillWindow(deps, provider, c);
        if (job.kind === 'poll') return later(await pollEvery(deps, provider), false);
        return job.kind === 'live' ? deps.jobs.finish(job) : later(0, false);
      }
      await noteFailure(deps, c, err.message);
      return later(backoffMs(job.attempts), true);
    default:
      // temporary, and kinds that cannot come from a fetch: retry with backoff, never expire.
      deps.logger.warn('provider unavailable: retrying later', log);
      await noteFailure(deps, c, err.message);
      return later(backoffMs(job.attempts), true);
  }
}

/** Whether the connection may read a resource: not when the provider's permission for it is missing. */
function permitted(provider: Provider, c: Connection, resource: string): boolean {
  const needs = provider.adapter.resources.find((r) => r.name === resource)?.permission;
  return !needs || !(c.missing_permissions ?? []).includes(needs);
}

async function noteFailure(deps: SyncDeps, c: Connection, message: string): Promise<void> {
  const failures = c.failures + 1;
  if (failures >= 3 && c.status === 'active') return setStatus(deps, c, 'error', 'status', message, failures);
  await deps.connections.update(c._id, { $set: { failures, last_error: message, updated_at: deps.clock.now().toISOString() } });
}

async function setStatus(deps: SyncDeps, c: Connection, status: Connection['status'], action: SourceConnectionAction, reason: string, failures = c.failures): Promise<void> {
  const at = deps.clock.now().toISOString();
  const next: Connection = { ...c, status, failures, last_error: reason, sync_seq: c.sync_seq + 1, updated_at: at };
  await deps.outbox.write([connectionMessage(deps.outbox, next, action, at, { reason: reason.slice(0, 500) })], () =>
    deps.connections.update(c._id, { $set: { status, failures, last_error: reason, updated_at: at }, $inc: { sync_seq: 1 } }),
  );
}

export { ProviderError };
