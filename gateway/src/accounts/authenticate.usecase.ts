/**
 * Who a token belongs to, and whether it may touch an organization.
 */
import { timingSafeEqual } from 'node:crypto';
import { forbidden, unauthenticated } from '@wellstream/errors';
import type { DeveloperToken, Organization } from './account';
import { hashToken } from './token-secret';

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

/** The two lookups every request makes (the repository, or the cache in front of it). */
export interface AccountLookups {
  findToken(hash: string): Promise<DeveloperToken | null>;
  findOrganization(id: string): Promise<Pick<Organization, '_id' | 'customer_id'> | null>;
}

export const INVALID_CREDENTIALS = 'Invalid authentication credentials.';

/** The operator token's hash, computed once: a request then hashes its token once, for both checks. */
export const adminTokenHash = (adminToken: string): Buffer => Buffer.from(hashToken(adminToken), 'hex');

export async function authenticate(repo: AccountLookups, adminHash: Buffer, token: string | undefined): Promise<Identity> {
  if (!token) throw unauthenticated('TOKEN_MISSING', 'A token is required (query parameter `token` or an Authorization: Bearer header).');
  const hash = hashToken(token);
  if (timingSafeEqual(Buffer.from(hash, 'hex'), adminHash)) return { kind: 'admin' };
  const found = await repo.findToken(hash);
  if (!found || found.revoked_at) throw unauthenticated('TOKEN_INVALID', INVALID_CREDENTIALS);
  return { kind: 'developer', customerId: found.customer_id, tokenHash: hash, rateLimitPerHour: found.rate_limit_per_hour };
}

export async function authorizeOrganization(repo: AccountLookups, customerId: string, organizationId: string): Promise<void> {
  const org = await repo.findOrganization(organizationId);
  // An unknown organization answers like a foreign one, so ids of other customers do not leak.
  if (!org || org.customer_id !== customerId) {
    throw forbidden('ORGANIZATION_FORBIDDEN', 'The token is not authorized to access this organization.');
  }
}
