/**
 * The rules service's express app: its routes on the shared app factory.
 */
import type express from 'express';
import { createServiceApp, organizationOwnerCheck, OrganizationOwners, HealthOption, ServiceMetrics } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import { rulesOpenApi } from './docs/rules.openapi';
import { createRuleRoute } from './rules/create-rule/create-rule.route';
import { deleteRuleRoute } from './rules/delete-rule/delete-rule.route';
import { getRuleRoute } from './rules/get-rule/get-rule.route';
import { listRulesRoute } from './rules/list-rules/list-rules.route';
import type { RuleUseCaseDeps } from './rules/rule-deps';
import { updateRuleRoute } from './rules/update-rule/update-rule.route';

export interface RulesAppDeps extends RuleUseCaseDeps {
  logger: Logger;
  health: HealthOption;
  metrics?: ServiceMetrics;
  /** Verify the gateway's caller assertions (WELLSTREAM_GATEWAY_KEYS). */
  gatewayKeys: readonly string[];
  /** Who owns each organization (this service's own projection), checked on every organization path. */
  organizationOwners: OrganizationOwners;
}

export function createRulesApp(deps: RulesAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    metrics: deps.metrics,
    gatewayKeys: deps.gatewayKeys,
    routes: (app) => {
      app.use('/v2/organizations/:orgId', organizationOwnerCheck(deps.organizationOwners));
      app.get('/openapi.json', (_req, res) => {
        res.json(rulesOpenApi);
      });
      listRulesRoute(app, deps);
      createRuleRoute(app, deps);
      getRuleRoute(app, deps);
      updateRuleRoute(app, deps);
      deleteRuleRoute(app, deps);
    },
  });
}
