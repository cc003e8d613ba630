/**
 * The lifecycle endpoints are the operator's: the gateway routes /v2/admin to them only with the
 * admin token and says so in its signed caller assertion; anything else is refused here too.
 */
import type { Request } from 'express';
import { isOperatorCall } from '@wellstream/http';
import { adminOnly } from '../users/user.errors';

/** Who did it, as the audit log names them. */
export function operatorActor(req: Request): string {
  if (!isOperatorCall(req)) throw adminOnly();
  return 'operator';
}
