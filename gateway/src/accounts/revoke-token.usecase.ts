import type { TokenRevocation } from '@wellstream/contracts';
import { notFound } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { hashToken } from './token-secret';
import type { Clock } from '@wellstream/clock';

/**
 * Revocation is immediate: stored first, then announced (this gateway's identity cache forgets the
 * token before the answer, the other gateways as the event reaches them).
 */
export async function revokeToken(
  deps: { repo: AccountRepository; announce: (r: TokenRevocation) => Promise<void> },
  token: string,
  clock: Clock,
) {
  const revoked = await deps.repo.tokens.findOneAndUpdate(
    { _id: hashToken(token), revoked_at: null },
    { $set: { revoked_at: clock.now().toISOString() } },
  );
  if (!revoked) throw notFound('TOKEN_NOT_FOUND', 'No active token matches.');
  await deps.announce({ type: 'token.revoked', token_hash: revoked._id, customer_id: revoked.customer_id, revoked_at: revoked.revoked_at! });
  return {
    customer_id: revoked.customer_id,
    rate_limit_per_hour: revoked.rate_limit_per_hour,
    created_at: revoked.created_at,
    revoked_at: revoked.revoked_at,
  };
}
