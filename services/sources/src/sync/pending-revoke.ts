/**
 * Revoking at the provider when a connection ends. The first try is made at once with the whole
 * budget (a revoke goes ahead of every sync request); when the provider cannot take it now (rate
 * limited, down, a timeout) the revoke is queued as the first job of the sync queue, holding the
 * ended connection's sealed tokens, and retried until the provider confirms (adapters read their
 * provider's "done" answers, e.g. Polar's 204, 401 and 404, as success). A revoke the provider
 * refuses for good (any other answer) is logged and dropped, as is one still failing after a week.
 * If the user connects again meanwhile, the queued revoke is dropped: it would end the new grant.
 */
import type { Connection } from '../connections/connection';
import { isProviderError, TokenSet } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { ProviderRegistry } from '../providers/provider-registry';
import type { TokenVault } from '../vault/token-vault';
import type { SyncJobRepository } from './sync-job.repository';
import { backoffMs, SyncJob } from './sync-job';

export interface RevokeOrQueueDeps {
  jobs: SyncJobRepository;
  clock: Clock;
  logger: Logger;
}

export interface RunRevokeDeps extends RevokeOrQueueDeps {
  registry: ProviderRegistry;
  connections: ConnectionRepository;
  vault: TokenVault;
}

const GIVE_UP_AFTER_MS = 7 * 24 * 3600 * 1000;

const retryable = (err: unknown) => !isProviderError(err) || err.kind === 'rate_limited' || err.kind === 'temporary';

/** Revokes now, or queues the revoke; true when the provider confirmed it now. */
export async function revokeOrQueue(deps: RevokeOrQueueDeps, provider: Provider, c: Connection, tokens: TokenSet): Promise<boolean> {
  if (!provider.adapter.revoke) return false;
  try {
    await provider.adapter.revoke(provider.http.interactive(c._id), provider.settings, tokens);
    return true;
  } catch (err) {
    if (!retryable(err)) {
      deps.logger.warn('provider refused the revoke; tokens are erased here all the same', { connection_id: c._id, error: err });
      return false;
    }
    deps.logger.warn('provider revoke failed for now: queued, retried until the provider confirms', { connection_id: c._id, error: err });
    await deps.jobs.scheduleRevoke(c._id, { source_type: c.source_type, user_id: c.user_id, tokens: c.tokens, since: deps.clock.now().toISOString() }, deps.clock.now());
    return false;
  }
}

export async function runRevoke(deps: RunRevokeDeps, job: SyncJob): Promise<void> {
  const r = job.revoke;
  const provider = r ? deps.registry.get(r.source_type) : undefined;
  if (!r || !provider?.adapter.revoke) return deps.jobs.finish(job);
  const log = { connection_id: job.connection_id, source_type: r.source_type, attempts: job.attempts };
  const current = await deps.connections.byId(job.connection_id);
  if (current && current.connected_at >= r.since) {
    deps.logger.info('the user connected again: the earlier connection\'s queued revoke is dropped', log);
    return deps.jobs.finish(job);
  }
  // The ending connection is still being removed (the revoke was queued just before): look again.
  if (current && deps.clock.now().getTime() - Date.parse(r.since) < 60_000) return deps.jobs.again(job, new Date(deps.clock.now().getTime() + 1000), false);
  if (current) return deps.jobs.finish(job);
  let tokens: TokenSet;
  try {
    tokens = JSON.parse(deps.vault.open(r.tokens)) as TokenSet;
  } catch (err) {
    deps.logger.error('queued revoke: the sealed tokens cannot be opened; dropped', { ...log, error: err });
    return deps.jobs.finish(job);
  }
  const now = deps.clock.now();
  try {
    await provider.adapter.revoke(provider.http.interactive(job.connection_id), provider.settings, tokens);
    deps.logger.info('queued revoke confirmed by the provider', log);
    return await deps.jobs.finish(job);
  } catch (err) {
    if (!retryable(err) || now.getTime() - Date.parse(r.since) > GIVE_UP_AFTER_MS) {
      deps.logger.error('queued revoke given up', { ...log, error: err });
      return deps.jobs.finish(job);
    }
    const wait = isProviderError(err) && err.kind === 'rate_limited' ? Math.max(1000, err.details.retryAfterMs ?? 60_000) : backoffMs(job.attempts);
    deps.logger.warn('queued revoke failed again: retrying', { ...log, retry_in_ms: Math.round(wait), error: err });
    return deps.jobs.again(job, new Date(now.getTime() + wait), true);
  }
}
