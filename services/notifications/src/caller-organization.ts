/**
 * The organization a request may act on: the one the gateway authorized for the caller's token
 * (forwarded in a header). A request that did not pass the gateway's organization check is refused.
 */
import type { Request } from 'express';
import { forbidden } from '@wellstream/errors';
import { callerOf } from '@wellstream/http';

export function callerOrganization(req: Request): { customerId: string; organizationId: string } {
  const caller = callerOf(req);
  if (!caller.organizationId || caller.organizationId !== req.params.org_id) {
    throw forbidden('ORGANIZATION_NOT_ALLOWED', 'The token is not authorized to access this organization.');
  }
  return { customerId: caller.customerId, organizationId: caller.organizationId };
}
