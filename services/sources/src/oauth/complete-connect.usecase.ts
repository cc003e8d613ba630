/**
 * The provider's redirect back: checks the state (signature, expiry, single use, provider), then
 * either records the user's refusal or trades the code for tokens, checks the scopes granted (none
 * of the data ones: no connection, `no_data.<type>`; some refused: the connection's
 * `missing_permissions`), stores the tokens sealed, queues the backfill (only the gap since the
 * last sync on a reconnect), queues asking which permissions are shared where the provider answers
 * that, and announces `connected` or `reconnected`. Answers where to send the browser: the user's
 * marketplace with a notice.
 */
import { isProviderError, TokenSet } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { Clock } from '@wellstream/clock';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { ProviderRegistry } from '../providers/provider-registry';
import type { SyncJobRepository } from '../sync/sync-job.repository';
import type { UserProjectionRepository } from '../users/user-projection.repository';
import type { TokenVault } from '../vault/token-vault';
import type { OAuthStateRepository } from './oauth-state.repository';
import { connectionId, Connection, ResourceProgress } from '../connections/connection';
import { connectionMessage } from '../connections/connection-events';
import { invalidState, sourceNotOffered } from '../connections/source.errors';
import { EPOCH } from '../sync/sync-job';
import { verifiedNonce } from './oauth-state';
import { readConsent } from './consent-scopes';

export interface CompleteConnectDeps {
  registry: ProviderRegistry;
  vault: TokenVault;
  states: OAuthStateRepository;
  users: UserProjectionRepository;
  connections: ConnectionRepository;
  jobs: SyncJobRepository;
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  backfillDays: number;
  pollIntervalMs: number;
  /** Work was queued and a subscription may be needed: look at the queue and the subscriptions now. */
  wake(): void;
}

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  /** The scopes the user accepted, where the provider puts them on the redirect (Strava, Oura). */
  scope?: string;
}

export interface CallbackOutcome {
  redirectTo: string;
  notice: string;
}

const DAY_MS = 24 * 3600 * 1000;

export async function completeConnect(deps: CompleteConnectDeps, type: string, query: CallbackQuery): Promise<CallbackOutcome> {
  const provider = deps.registry.get(type);
  if (!provider) throw sourceNotOffered(type);
  const now = deps.clock.now();
  const nonce = typeof query.state === 'string' ? verifiedNonce(deps.vault, type, query.state, now) : null;
  if (!nonce) throw invalidState();
  const pending = await deps.states.take(nonce);
  if (!pending || pending.source_type !== type || pending.expires_at < now.toISOString()) throw invalidState();
  const back = (notice: string) => ({ redirectTo: `${deps.vault.open(pending.return_url)}?notice=${encodeURIComponent(notice)}`, notice });
  if (query.error || !query.code) {
    deps.logger.info('provider consent not given', { source_type: type, error: query.error ?? 'no code' });
    return back(query.error === 'access_denied' || !query.code ? `denied.${type}` : `error.${type}`);
  }
  const user = await deps.users.byId(pending.user_id);
  if (!user || user.status !== 'active') return back(`error.${type}`);
  let tokens: TokenSet;
  let missing: string[];
  try {
    tokens = await provider.adapter.exchangeCode(provider.http.interactive(), provider.settings, { code: query.code, ...(pending.code_verifier ? { codeVerifier: deps.vault.open(pending.code_verifier) } : {}) }, now);
    const granted = tokens.scope ?? query.scope;
    const consent = readConsent(provider.adapter.consentScopes, granted);
    if (!consent.dataGranted) {
      // Nothing to read: no connection. The grant the provider made anyway is handed back, unless
      // the user already has a connection (a provider may revoke per user and app, taking that
      // connection's tokens with it: the user asked for no such thing).
      deps.logger.info('provider consent without any data permission: not connected', { source_type: type, granted });
      const existing = await deps.connections.byId(connectionId(user._id, type));
      if (!existing && provider.adapter.revoke) await provider.adapter.revoke(provider.http.interactive(), provider.settings, tokens).catch((err) => deps.logger.warn('could not hand back a grant without data permissions', { source_type: type, error: err }));
      return back(`no_data.${type}`);
    }
    missing = consent.missing;
    if (granted !== undefined) tokens = { ...tokens, scope: granted };
    if (!tokens.providerUserId && provider.adapter.fetchProviderUserId) tokens = { ...tokens, providerUserId: await provider.adapter.fetchProviderUserId(provider.http.interactive(), provider.settings, tokens.accessToken) };
    if (provider.adapter.afterConnect) tokens = (await provider.adapter.afterConnect(provider.http.interactive(), provider.settings, tokens)) ?? tokens;
  } catch (err) {
    if (!isProviderError(err)) throw err;
    deps.logger.warn('provider refused the code exchange', { source_type: type, kind: err.kind, error: err.message });
    return back(`error.${type}`);
  }
  const id = connectionId(user._id, type);
  const previous = await deps.connections.byId(id);
  const at = now.toISOString();
  const connection: Connection = {
    _id: id,
    user_id: user._id,
    organization_id: user.organization_id,
    source_type: type,
    status: 'active',
    provider_user_id: tokens.providerUserId ?? previous?.provider_user_id ?? null,
    ...(missing.length > 0 ? { missing_permissions: missing } : {}),
    tokens: deps.vault.seal(JSON.stringify(tokens)),
    token_expires_at: tokens.expiresAt,
    token_rev: (previous?.token_rev ?? 0) + 1,
    refresh_lock_until: EPOCH,
    connected_at: previous?.connected_at ?? at,
    last_synced_at: previous?.last_synced_at ?? null,
    last_error: null,
    failures: 0,
    resources: backfillPlan(provider, previous, now, deps.backfillDays),
    sync_seq: (previous?.sync_seq ?? 0) + 1,
    last_announced_at: at,
    updated_at: at,
  };
  const action = previous ? 'reconnected' : 'connected';
  await deps.outbox.write([connectionMessage(deps.outbox, connection, action, at)], () => deps.connections.save(connection));
  await deps.jobs.schedule(id, 'backfill', now);
  await deps.jobs.schedule(id, 'poll', new Date(now.getTime() + deps.pollIntervalMs));
  // A provider whose consent names no scopes (Garmin: its permissions are switches in the user's
  // account, historical data off unless the user turns it on) is asked what it shares, so the
  // marketplace shows a missing permission from the start, not from the first change.
  if (provider.adapter.fetchMissingPermissions) await deps.jobs.schedule(id, 'live', now, undefined, { permissions_check: true });
  if (provider.adapter.userSubscriptions) {
    try {
      await provider.adapter.userSubscriptions.subscribe(provider.http.interactive(id), provider.settings, tokens.accessToken);
    } catch (err) {
      // Polling still brings the data; the subscription is tried again on the next reconnect.
      deps.logger.warn('provider notification subscription failed', { source_type: type, error: err });
    }
  }
  deps.wake();
  return back(`${action}.${type}`);
}

/**
 * What each resource still needs from history: the whole window on a first connect; on a
 * reconnect only the gap since it was last synced (a day of overlap for late-finalized days).
 */
function backfillPlan(provider: Provider, previous: Connection | null, now: Date, days: number): Record<string, ResourceProgress> {
  const end = now.toISOString();
  const plan: Record<string, ResourceProgress> = {};
  for (const r of provider.adapter.resources) {
    const before = previous?.resources[r.name];
    const since = before?.synced_until ?? (before && before.backfill_done_until >= before.backfill_end ? before.backfill_end : null);
    const historyDays = provider.defaults.historyDays === null ? days : Math.min(days, provider.defaults.historyDays);
    const start = since ? new Date(Math.max(Date.parse(since) - DAY_MS, now.getTime() - historyDays * DAY_MS)).toISOString() : new Date(now.getTime() - historyDays * DAY_MS).toISOString();
    plan[r.name] = { backfill_start: start, backfill_end: end, backfill_done_until: start, backfill_cursor: null, synced_until: before?.synced_until ?? null };
  }
  return plan;
}
