/**
 * Who is calling. The gateway authenticates the token and forwards the caller's identity in these
 * headers (stripping any a client sent) with a signed assertion binding them to the request; the
 * gateway-trust middleware verifies it and records the caller here. Nothing reads the headers
 * unverified.
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

interface VerifiedCaller {
  customerId?: string;
  organizationId?: string;
  operator: boolean;
}

const VERIFIED = Symbol('wellstream.verifiedCaller');
type WithCaller = Request & { [VERIFIED]?: VerifiedCaller };

export function setVerifiedCaller(req: Request, caller: VerifiedCaller): void {
  (req as WithCaller)[VERIFIED] = caller;
}

/** The customer the gateway vouched for; 401 when there is none. */
export function callerOf(req: Request): Caller {
  const verified = (req as WithCaller)[VERIFIED];
  if (!verified?.customerId) throw unauthenticated('NO_CALLER', 'Invalid authentication credentials.');
  return { customerId: verified.customerId, organizationId: verified.organizationId };
}

/** True when the gateway vouched that the operator token made this request. */
export const isOperatorCall = (req: Request): boolean => (req as WithCaller)[VERIFIED]?.operator === true;
