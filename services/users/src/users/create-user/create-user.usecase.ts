/**
 * Creates an active user with no sources and fresh marketplace and mobile tokens, then announces it.
 */
import { unprocessable } from '@wellstream/errors';
import type { UsersDeps } from '../users.deps';
import { newUser, User } from '../user';
import { uidProblems } from '../uid-policy';
import { locationProblems } from '../location-policy';
import type { CreateUserBody } from './create-user.schema';

export async function createUser(
  deps: UsersDeps,
  input: CreateUserBody & { organizationId: string; customerId: string },
): Promise<User> {
  const errors: Record<string, string[]> = {};
  const uidErrors = uidProblems(input.uid);
  if (uidErrors.length) errors.uid = uidErrors;
  Object.assign(errors, locationProblems(input.location ?? {}));
  if (Object.keys(errors).length) throw unprocessable('INVALID_USER', errors);

  const user = newUser({
    uid: input.uid,
    organizationId: input.organizationId,
    customerId: input.customerId,
    location: { timezone: input.location?.timezone ?? null, country_code: input.location?.country_code ?? null },
    now: deps.clock.now().toISOString(),
  });
  return deps.events.userChanged('user.created', deps.repo.creation(user));
}
