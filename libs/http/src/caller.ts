/**
 * Who is calling. The gateway authenticates the token and forwards the caller's identity in these
 * headers (stripping any a client sent); services sit on the internal network and trust them.
 */
import type { Request } from 'express';
import { unauthenticated } from '@wellstream/errors';

export const CALLER_HEADERS = {
  customerId: 'x-wellstream-customer-id',
  organizationId: 'x-wellstream-organization-id',
} as const;

export interface Caller {
  customerId: string;
  /** Set when the path names an organization the gateway authorized. */
  organizationId?: string;
}

export function callerOf(req: Request): Caller {
  const customerId = req.header(CALLER_HEADERS.customerId);
  if (!customerId) throw unauthenticated('NO_CALLER', 'Invalid authentication credentials.');
  return { customerId, organizationId: req.header(CALLER_HEADERS.organizationId) || undefined };
}
