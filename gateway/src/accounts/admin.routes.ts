/**
 * The operator API (`/v2/admin/…` in the OpenAPI document): customers, organizations, tokens. Admin token only.
 */
import express from 'express';
import Joi from 'joi';
import type { EventLog } from '@wellstream/bus';
import type { Logger } from '@wellstream/logging';
import { route, validate } from '@wellstream/http';
import type { TokenRevocations } from '../auth/token-revocations';
import type { Outbox } from '@wellstream/outbox';
import type { AccountRepository } from './account.repository';
import { createCustomer } from './create-customer.usecase';
import { deleteCustomer } from './delete-customer.usecase';
import { createOrganization } from './create-organization.usecase';
import { issueToken } from './issue-token.usecase';
import { revokeToken } from './revoke-token.usecase';
import { updateOrganizationSettings } from './update-organization-settings.usecase';

const nameBody = Joi.object({ name: Joi.string().trim().min(1).max(200).required() });

export function adminRoutes(deps: {
  repo: AccountRepository;
  outbox: Outbox;
  eventLog: EventLog;
  logger: Logger;
  defaultRateLimit: number;
  revocations: TokenRevocations;
}): express.Router {
  const r = express.Router();
  r.use(express.json({ limit: '64kb' }));

  r.post(
    '/customers',
    route(async (req, res) => {
      const body = validate(nameBody, req.body ?? {});
      res.status(201).json(await createCustomer(deps, body));
    }),
  );

  r.delete(
    '/customers/:customerId',
    route(async (req, res) => {
      res.status(200).json(await deleteCustomer({ ...deps, announce: (r) => deps.revocations.announce(r) }, req.params.customerId));
    }),
  );

  r.post(
    '/customers/:customerId/organizations',
    route(async (req, res) => {
      const body = validate(nameBody, req.body ?? {});
      res.status(201).json(await createOrganization(deps, { customerId: req.params.customerId, name: body.name }));
    }),
  );

  r.post(
    '/customers/:customerId/tokens',
    route(async (req, res) => {
      const body = validate(
        Joi.object({ rate_limit_per_hour: Joi.number().integer().min(1).max(10_000_000).default(deps.defaultRateLimit) }),
        req.body ?? {},
      );
      res.status(201).json(await issueToken(deps.repo, { customerId: req.params.customerId, rateLimitPerHour: body.rate_limit_per_hour }));
    }),
  );

  r.delete(
    '/tokens/:token',
    route(async (req, res) => {
      res.status(200).json(await revokeToken({ repo: deps.repo, announce: (r) => deps.revocations.announce(r) }, req.params.token));
    }),
  );

  // Beyond the contract: per-organization settings (the rules flag, how far back records are served).
  r.patch(
    '/organizations/:orgId/settings',
    route(async (req, res) => {
      const body = validate(
        Joi.object({
          rules_enabled: Joi.boolean().allow(null),
          history_days: Joi.number().integer().min(1).max(3650),
        }).min(1),
        req.body ?? {},
      );
      res.json(await updateOrganizationSettings(deps, { organizationId: req.params.orgId, settings: body }));
    }),
  );
  return r;
}
