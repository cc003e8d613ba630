import { notFound } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { hashToken } from './token-secret';

/** Revocation is immediate: every request looks the token up (no cache to go stale). */
export async function revokeToken(repo: AccountRepository, token: string, now = new Date()) {
  const revoked = await repo.tokens.findOneAndUpdate(
    { _id: hashToken(token), revoked_at: null },
    { $set: { revoked_at: now.toISOString() } },
  );
  if (!revoked) throw notFound('TOKEN_NOT_FOUND', 'No active token matches.');
  return {
    customer_id: revoked.customer_id,
    rate_limit_per_hour: revoked.rate_limit_per_hour,
    created_at: revoked.created_at,
    revoked_at: revoked.revoked_at,
  };
}
