/**
 * Defence in depth behind the gateway: a service checks for itself that the organization in the
 * path belongs to the customer the gateway vouched for, using its own projection of the
 * `organizations` topic. The projection may lag the gateway by a moment (an organization created
 * just now): the OrganizationOwners handed in reads its own writes (libs/runtime wraps each
 * service's projection with libs/bus read-your-writes.ts), so one lookup here is the answer.
 */
import type { Request, RequestHandler } from 'express';
import { forbidden } from '@wellstream/errors';
import { Caller, callerOf } from './caller';
import { route } from './create-service-app';

export interface OrganizationOwners {
  /** The customer owning the organization, or undefined (or null) when the projection does not know it. */
  customerOf(organizationId: string): Promise<string | undefined | null>;
}

export const organizationNotAllowed = () => forbidden('ORGANIZATION_NOT_ALLOWED', 'The token is not authorized to access this organization.');

export async function assertCallerOwnsOrganization(owners: OrganizationOwners, caller: Caller, organizationId: string): Promise<void> {
  // The gateway signed the organization it authorized; a path naming another one was not authorized.
  if (caller.organizationId !== organizationId) throw organizationNotAllowed();
  // Unknown (undefined or null) or another customer's: refused alike.
  if ((await owners.customerOf(organizationId)) !== caller.customerId) throw organizationNotAllowed();
}

const CHECKED_ORGANIZATION = Symbol('wellstream.checkedOrganization');
type WithOrganization = Request & { [CHECKED_ORGANIZATION]?: string };

/**
 * Mounted on `/v2/organizations/:orgId` before a service's routes: every request naming an
 * organization is refused (401 {"errors"}) unless the vouched-for caller's customer owns it.
 */
export function organizationOwnerCheck(owners: OrganizationOwners): RequestHandler {
  return route(async (req, _res, next) => {
    await assertCallerOwnsOrganization(owners, callerOf(req), req.params.orgId);
    (req as WithOrganization)[CHECKED_ORGANIZATION] = req.params.orgId;
    next();
  });
}

/**
 * The caller and the organization in the path, as the guard above checked them. A route reached
 * without the guard (mounted wrongly) refuses rather than trusting the path.
 */
export function organizationCaller(req: Request): { customerId: string; organizationId: string } {
  const caller = callerOf(req);
  const organizationId = (req as WithOrganization)[CHECKED_ORGANIZATION];
  if (organizationId === undefined) throw organizationNotAllowed();
  return { customerId: caller.customerId, organizationId };
}
