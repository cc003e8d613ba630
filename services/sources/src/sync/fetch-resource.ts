/**
 * Fetches one resource of one connection over one window with a fresh token: a 401 refreshes once
 * and retries the page (a second 401 means the grant is gone). `fetchPage` is one request (a
 * backfill step, resumable at its cursor); `fetchResource` follows every page (live and polls).
 * `cls` is the kind of work, which orders requests within the provider's budget.
 */
import type { Connection } from '../connections/connection';
import { FetchResult, IngestRecord, isProviderError, ProviderError } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { RequestClass } from '../providers/rate-limited-http';
import type { ProjectedUser } from '../users/user-projection';
import type { TokenKeeper } from './token-keeper';

/** A provider that keeps answering "more" is cut off here rather than looping for ever. */
const MAX_PAGES = 500;

export async function fetchPage(keeper: TokenKeeper, provider: Provider, c: Connection, user: ProjectedUser, resource: string, start: Date, end: Date, cursor: string | undefined, cls: RequestClass): Promise<FetchResult> {
  const http = provider.http.for(c._id, cls);
  const ctx = { userTimezone: user.timezone, ...(c.provider_user_id ? { providerUserId: c.provider_user_id } : {}) };
  const window = { start, end, ...(cursor ? { cursor } : {}) };
  const tokens = await keeper.fresh(provider, c);
  try {
    return await provider.adapter.fetchWindow(http, provider.settings, tokens.accessToken, resource, window, ctx);
  } catch (err) {
    if (!isProviderError(err) || err.kind !== 'auth_invalid') throw err;
  }
  const refreshed = await keeper.refresh(provider, c);
  try {
    return await provider.adapter.fetchWindow(http, provider.settings, refreshed.accessToken, resource, window, ctx);
  } catch (err) {
    if (isProviderError(err) && err.kind === 'auth_invalid') throw new ProviderError('auth_revoked', 'the provider refused a freshly refreshed token', err.details);
    throw err;
  }
}

export async function fetchResource(keeper: TokenKeeper, provider: Provider, c: Connection, user: ProjectedUser, resource: string, start: Date, end: Date, cls: RequestClass): Promise<IngestRecord[]> {
  const records: IngestRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(keeper, provider, c, user, resource, start, end, cursor, cls);
    records.push(...result.records);
    if (!result.nextCursor) return records;
    cursor = result.nextCursor;
  }
  throw new ProviderError('bad_response', `more than ${MAX_PAGES} pages for one window of ${resource}`);
}
