/**
 * Who a token belongs to, and whether it may touch an organization.
 */
import { forbidden, unauthenticated } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { hashToken, sameSecret } from './token-secret';

export interface DeveloperIdentity {
  kind: 'developer';
  customerId: string;
  tokenHash: string;
  rateLimitPerHour: number;
}
export interface AdminIdentity {
  kind: 'admin';
}
export type Identity = DeveloperIdentity | AdminIdentity;

export const INVALID_CREDENTIALS = 'Invalid authentication credentials.';

export async function authenticate(repo: AccountRepository, adminToken: string, token: string | undefined): Promise<Identity> {
  if (!token) throw unauthenticated('TOKEN_MISSING', 'A token is required (query parameter `token` or an Authorization: Bearer header).');
  if (sameSecret(token, adminToken)) return { kind: 'admin' };
  const hash = hashToken(token);
  const found = await repo.findToken(hash);
  if (!found || found.revoked_at) throw unauthenticated('TOKEN_INVALID', INVALID_CREDENTIALS);
  return { kind: 'developer', customerId: found.customer_id, tokenHash: hash, rateLimitPerHour: found.rate_limit_per_hour };
}

export async function authorizeOrganization(repo: AccountRepository, customerId: string, organizationId: string): Promise<void> {
  const org = await repo.findOrganization(organizationId);
  // An unknown organization answers like a foreign one, so ids of other customers do not leak.
  if (!org || org.customer_id !== customerId) {
    throw forbidden('ORGANIZATION_FORBIDDEN', 'The token is not authorized to access this organization.');
  }
}
