/**
 * The user picks their own time zone in the marketplace. It is marked `user_defined`, so records
 * reports offset_origin `user_defined` for offsets computed from it.
 */
import { unprocessable } from '@wellstream/errors';
import type { UsersDeps } from '../../users/users.deps';
import type { User } from '../../users/user';
import { withRetry } from '../../users/user.repository';
import { marketplaceNotFound } from '../../users/user.errors';
import { isSupportedTimeZone } from '../../users/location-policy';

export async function chooseTimezone(deps: UsersDeps, userId: string, timezone: string): Promise<User> {
  if (!isSupportedTimeZone(timezone)) {
    throw unprocessable('INVALID_TIMEZONE', { timezone: [`"${timezone}" is not a supported Olson time zone (e.g. Europe/Berlin)`] });
  }
  return withRetry(async () => {
    const current = await deps.repo.findById(userId);
    if (!current || current.status !== 'active') throw marketplaceNotFound();
    return deps.events.userChanged('user.updated', deps.repo.change(current, { timezone, timezone_origin: 'user_defined', updated_at: deps.clock.now().toISOString() }));
  });
}
