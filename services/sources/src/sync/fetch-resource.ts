/**
 * Fetches one resource of one connection over one window, every page, or the objects a
 * notification named, one by one, with a fresh token: a 401 refreshes once and retries the call (a
 * second 401 means the grant is gone).
 */
import type { Connection } from '../connections/connection';
import { FetchContext, IngestRecord, isProviderError, ProviderError } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { ProjectedUser } from '../users/user-projection';
import type { TokenKeeper } from './token-keeper';

/** A provider that keeps answering "more" is cut off here rather than looping for ever. */
const MAX_PAGES = 500;

export async function fetchResource(keeper: TokenKeeper, provider: Provider, c: Connection, user: ProjectedUser, resource: string, start: Date, end: Date, purpose: FetchContext['purpose'] = 'backfill'): Promise<IngestRecord[]> {
  let tokens = await keeper.fresh(provider, c);
  let refreshed = false;
  const records: IngestRecord[] = [];
  let cursor: string | undefined;
  const http = provider.http.for(c._id);
  for (let page = 0; page < MAX_PAGES; page++) {
    try {
      const result = await provider.adapter.fetchWindow(http, provider.settings, tokens.accessToken, resource, { start, end, ...(cursor ? { cursor } : {}) }, {
        ...contextOf(c, user),
        purpose,
      });
      records.push(...result.records);
      if (!result.nextCursor) return records;
      cursor = result.nextCursor;
    } catch (err) {
      if (!isProviderError(err) || err.kind !== 'auth_invalid') throw err;
      if (refreshed) throw new ProviderError('auth_revoked', 'the provider refused a freshly refreshed token', err.details);
      tokens = await keeper.refresh(provider, c);
      refreshed = true;
      page--;
    }
  }
  throw new ProviderError('bad_response', `more than ${MAX_PAGES} pages for one window of ${resource}`);
}

const contextOf = (c: Connection, user: ProjectedUser): FetchContext => ({ userTimezone: user.timezone, ...(c.provider_user_id ? { providerUserId: c.provider_user_id } : {}) });

/** Each named object of one resource by itself (the adapter's fetchObject), as records. */
export async function fetchObjects(keeper: TokenKeeper, provider: Provider, c: Connection, user: ProjectedUser, resource: string, ids: string[]): Promise<IngestRecord[]> {
  const fetchObject = provider.adapter.fetchObject;
  if (!fetchObject) throw new ProviderError('bad_request', `${provider.type} cannot fetch one object`);
  let tokens = await keeper.fresh(provider, c);
  let refreshed = false;
  const records: IngestRecord[] = [];
  const http = provider.http.for(c._id);
  for (let i = 0; i < ids.length; i++) {
    try {
      records.push(...(await fetchObject(http, provider.settings, tokens.accessToken, resource, ids[i], { ...contextOf(c, user), purpose: 'live' })));
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
