/**
 * The organization a customer request acts on. The gateway already checked that the token's
 * customer owns the organization in the path; this re-checks the forwarded headers so the service
 * never serves an organization nobody authorized (defence in depth).
 */
import type { Request } from 'express';
import { callerOf } from '@wellstream/http';
import { wrongOrganization } from './user.errors';

export function organizationCaller(req: Request): { customerId: string; organizationId: string } {
  const caller = callerOf(req);
  const organizationId = req.params.orgId;
  if (!caller.organizationId || caller.organizationId !== organizationId) throw wrongOrganization();
  return { customerId: caller.customerId, organizationId };
}
