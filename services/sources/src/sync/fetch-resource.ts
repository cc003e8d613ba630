/**
 * Fetches one resource of one connection over one window with a fresh token: a 401 refreshes once
 * and retries the page (a second 401 means the grant is gone). `fetchPage` is one request (a
 * backfill step, resumable at its cursor); `fetchResource` follows every page (live and polls);
 * `fetchObjects` reads the objects a notification named, one by one. `cls` is the kind of work,
 * which orders requests within the provider's budget; the adapter sees it as the fetch's purpose.
 */
import type { Connection } from '../connections/connection';
import { FetchContext, FetchResult, IngestRecord, isProviderError, ProviderError } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { RequestClass } from '../providers/rate-limited-http';
import type { ProjectedUser } from '../users/user-projection';
import type { TokenKeeper } from './token-keeper';

/** A provider that keeps answering "more" is cut off here rather than looping for ever. */
const MAX_PAGES = 500;

const PURPOSE: Record<RequestClass, FetchContext['purpose']> = { urgent: 'live', live: 'live', poll: 'poll', history: 'backfill' };

const contextOf = (c: Connection, user: ProjectedUser, cls: RequestClass): FetchContext => ({
  userTimezone: user.timezone,
  ...(c.provider_user_id ? { providerUserId: c.provider_user_id } : {}),
  purpose: PURPOSE[cls],
});

export async function fetchPage(keeper: TokenKeeper, provider: Provider, c: Connection, user: ProjectedUser, resource: string, start: Date, end: Date, cursor: string | undefined, cls: RequestClass): Promise<FetchResult> {
  const http = provider.http.for(c._id, cls);
  const ctx = contextOf(c, user, cls);
  const window = { start, end, ...(cursor ? { cursor } : {}) };
  return keeper.withToken(provider, c, (accessToken) => provider.adapter.fetchWindow(http, provider.settings, accessToken, resource, window, ctx));
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

/** Each named object of one resource by itself (the adapter's fetchObject), as records: live work. */
export async function fetchObjects(keeper: TokenKeeper, provider: Provider, c: Connection, user: ProjectedUser, resource: string, ids: string[]): Promise<IngestRecord[]> {
  const fetchObject = provider.adapter.fetchObject;
  if (!fetchObject) throw new ProviderError('bad_request', `${provider.type} cannot fetch one object`);
  let tokens = await keeper.fresh(provider, c);
  let refreshed = false;
  const records: IngestRecord[] = [];
  const http = provider.http.for(c._id, 'live');
  for (let i = 0; i < ids.length; i++) {
    try {
      records.push(...(await fetchObject(http, provider.settings, tokens.accessToken, resource, ids[i], contextOf(c, user, 'live'))));
    } catch (err) {
      if (!isProviderError(err) || err.kind !== 'auth_invalid') throw err;
      if (refreshed) throw new ProviderError('auth_revoked', 'the provider refused a freshly refreshed token', err.details);
      tokens = await keeper.refresh(provider, c);
      refreshed = true;
      i--;
    }
  }
  return records;
}
