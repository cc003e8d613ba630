/**
 * PUT /v2/organizations/:org_id/notification_target → 200 target view (never the secret).
 */
import type { IRouter } from 'express';
import { endpointRoute, organizationCaller, validate } from '@wellstream/http';
import { notificationsEndpoint } from '../../notifications-endpoints';
import { badRequest } from '@wellstream/errors';
import type { AddressPolicy } from '../address-policy';
import type { TargetRepository } from '../target.repository';
import { configureTarget } from './configure-target.usecase';
import { configureTargetSchema } from './configure-target.schema';
import type { Clock } from '@wellstream/clock';

export function configureTargetRoute(router: IRouter, deps: { targets: TargetRepository; policy: AddressPolicy; clock: Clock }): void {
  endpointRoute(router, notificationsEndpoint('configureNotificationTarget'), [], async (req, res) => {
    const caller = organizationCaller(req);
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
      throw badRequest('BODY_NOT_OBJECT', { body: ['the body must be a JSON object with url'] });
    }
    const body = validate(configureTargetSchema, req.body, { kind: 'unprocessable', code: 'TARGET_INVALID' });
    const view = await configureTarget(deps, {
      organizationId: caller.organizationId,
      customerId: caller.customerId,
      url: body.url,
      secret: body.secret,
      resourceFilter: body.resource_filter,
    });
    res.status(200).json(view);
  });
}
