/**
 * The operator API (`/v2/admin/…` in the OpenAPI document): customers, organizations, tokens. Admin token only
 * (the gateway checks it on /v2/admin before these routes).
 */
import express from 'express';
import Joi from 'joi';
import type { EventLog } from '@wellstream/bus';
import type { Logger } from '@wellstream/logging';
import { endpointRoute, validate } from '@wellstream/http';
import type { TokenRevocations } from '../auth/token-revocations';
import type { Outbox } from '@wellstream/outbox';
import type { AccountRepository } from './account.repository';
import { gatewayEndpoint } from './gateway-endpoints';
import { createCustomer } from './create-customer.usecase';
import { deleteCustomer } from './delete-customer.usecase';
import { createOrganization } from './create-organization.usecase';
import { issueToken } from './issue-token.usecase';
import { revokeToken } from './revoke-token.usecase';
import { updateOrganizationSettings } from './update-organization-settings.usecase';
import type { Clock } from '@wellstream/clock';

const nameBody = Joi.object({ name: Joi.string().trim().min(1).max(200).required() });

export function adminRoutes(deps: {
  repo: AccountRepository;
  outbox: Outbox;
  eventLog: EventLog;
  logger: Logger;
  defaultRateLimit: number;
  revocations: TokenRevocations;
  clock: Clock;
}): express.Router {
  const r = express.Router();
  r.use('/v2/admin', express.json({ limit: '64kb' }));

  endpointRoute(r, gatewayEndpoint('createCustomer'), [], async (req, res) => {
    const body = validate(nameBody, req.body ?? {});
    res.status(201).json(await createCustomer(deps, body, deps.clock));
  });

  endpointRoute(r, gatewayEndpoint('deleteCustomer'), [], async (req, res) => {
    res.status(200).json(await deleteCustomer({ ...deps, announce: (r) => deps.revocations.announce(r) }, req.params.customer_id, deps.clock));
  });

  endpointRoute(r, gatewayEndpoint('createOrganization'), [], async (req, res) => {
    const body = validate(nameBody, req.body ?? {});
    res.status(201).json(await createOrganization(deps, { customerId: req.params.customer_id, name: body.name }, deps.clock));
  });

  endpointRoute(r, gatewayEndpoint('issueToken'), [], async (req, res) => {
    const body = validate(
      Joi.object({ rate_limit_per_hour: Joi.number().integer().min(1).max(10_000_000).default(deps.defaultRateLimit) }),
      req.body ?? {},
    );
    res.status(201).json(await issueToken(deps.repo, { customerId: req.params.customer_id, rateLimitPerHour: body.rate_limit_per_hour }, deps.clock));
  });

  endpointRoute(r, gatewayEndpoint('revokeToken'), [], async (req, res) => {
    res.status(200).json(await revokeToken({ repo: deps.repo, announce: (r) => deps.revocations.announce(r) }, req.params.token, deps.clock));
  });

  // Beyond the contract: per-organization settings (the rules flag, how far back records are served).
  endpointRoute(r, gatewayEndpoint('updateOrganizationSettings'), [], async (req, res) => {
    const body = validate(
      Joi.object({
        rules_enabled: Joi.boolean().allow(null),
        history_days: Joi.number().integer().min(1).max(3650),
      }).min(1),
      req.body ?? {},
    );
    res.json(await updateOrganizationSettings(deps, { organizationId: req.params.org_id, settings: body }, deps.clock));
  });
  return r;
}
