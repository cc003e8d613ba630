/**
 * Whether the provider itself says a user's access is gone, asked with the user's own token. A
 * provider whose notifications are unsigned (Strava) can be sent a forged "the user withdrew
 * access": the notification alone must not end a connection whose tokens still work.
 *
 * Only the provider refusing the token confirms it: a 401 to a token we hold as fresh, and a 401 (or
 * a refused refresh) again after one refresh (an access token can die early, e.g. rotated on another
 * replica, without the grant being gone). A working call means the notification was not the
 * provider's. Anything else (outage, rate limit) throws, and the job holding the check retries it.
 */
import type { Connection } from '../connections/connection';
import { isProviderError } from '../providers/provider.port';
import type { Provider } from '../providers/provider-registry';
import type { TokenKeeper } from './token-keeper';

const refused = (err: unknown) => isProviderError(err) && (err.kind === 'auth_invalid' || err.kind === 'auth_revoked');

export async function providerConfirmsAccessEnded(keeper: TokenKeeper, provider: Provider, c: Connection): Promise<boolean> {
  const check = provider.adapter.checkAccess;
  // No way to ask: never end a connection on an unsigned word alone.
  if (!check) return false;
  const http = provider.http.for(c._id);
  try {
    await check(http, provider.settings, (await keeper.fresh(provider, c)).accessToken);
    return false;
  } catch (err) {
    if (!refused(err)) throw err;
  }
  try {
    await check(http, provider.settings, (await keeper.refresh(provider, c)).accessToken);
    return false;
  } catch (err) {
    if (refused(err)) return true;
    throw err;
  }
}
