/**
 * Changes a user's location. A zone set here is the customer's profile value, so the origin
 * returns to `profile` (records then reports offset_origin `profile`).
 */
import { unprocessable } from '@wellstream/errors';
import type { UsersDeps } from '../users.deps';
import type { User } from '../user';
import { findVisibleUser } from '../find-user';
import { locationProblems } from '../location-policy';
import { withRetry } from '../user.repository';
import type { UpdateUserBody } from './update-user.schema';

export async function updateUserLocation(deps: UsersDeps, organizationId: string, uid: string, body: UpdateUserBody): Promise<User> {
  const errors = locationProblems(body.location);
  if (Object.keys(errors).length) throw unprocessable('INVALID_LOCATION', errors);
  return withRetry(async () => {
    const user = await findVisibleUser(deps.repo, organizationId, uid);
    const changes: Partial<User> = { updated_at: deps.clock.now().toISOString() };
    if (body.location.timezone !== undefined) {
      changes.timezone = body.location.timezone;
      changes.timezone_origin = 'profile';
    }
    if (body.location.country_code !== undefined) changes.country_code = body.location.country_code;
    return deps.events.userChanged('user.updated', deps.repo.change(user, changes));
  });
}
