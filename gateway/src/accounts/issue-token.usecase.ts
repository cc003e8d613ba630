import { notFound } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { displayPrefixOf, hashToken, newToken } from './token-secret';
import type { Clock } from '@wellstream/clock';

export async function issueToken(
  repo: AccountRepository,
  input: { customerId: string; rateLimitPerHour: number },
  clock: Clock,
) {
  if (!(await repo.findCustomer(input.customerId))) throw notFound('CUSTOMER_NOT_FOUND', `No customer found for id ${input.customerId}.`);
  const token = newToken();
  const created_at = clock.now().toISOString();
  await repo.tokens.insertOne({
    _id: hashToken(token),
    customer_id: input.customerId,
    rate_limit_per_hour: input.rateLimitPerHour,
    created_at,
    revoked_at: null,
    prefix: displayPrefixOf(token),
  });
  return { token, customer_id: input.customerId, rate_limit_per_hour: input.rateLimitPerHour, created_at };
}
