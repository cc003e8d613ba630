/**
 * The rules service on the shared skeleton: use cases wired to the topics it consumes
 * (organizations, users, events), to the evaluation schedule and to its routes.
 */
import { customerEventsTopic, organizationEventsTopic, userEventsTopic } from '@wellstream/contracts';
import { createStandardServiceApp, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { rulesRoutes } from './app';
import { rulesOpenApi } from '@wellstream/endpoints';
import type { RulesConfig } from './config';
import { DataPointRepository } from './data-points/data-point.repository';
import { recordDataPoints } from './data-points/record-data-points/record-data-points.usecase';
import { evaluateAllRules, EvaluationDeps, evaluateUserRules } from './evaluation/evaluate-rules/evaluate-rules.usecase';
import { startScheduler } from './evaluation/evaluation-scheduler';
import { applyOrganizationEvent } from './organizations/apply-organization-event/apply-organization-event.usecase';
import { OrganizationProjectionRepository } from './organizations/organization-projection.repository';
import { rulesFeature } from './organizations/rules-feature';
import { MAX_WINDOW_MS } from './rules/rule';
import { RuleRepository } from './rules/rule.repository';
import { applyUserEvent } from './users/apply-user-event/apply-user-event.usecase';
import { userDirectory } from './users/user-directory';
import { UserProjectionRepository } from './users/user-projection.repository';
import { systemClock } from '@wellstream/clock';
import { answerUserDataRequests } from '@wellstream/runtime';
import { rulesDataHolder } from './lifecycle/rules-data-holder';
import { VOLUME_COMMIT_EVERY_MS } from '@wellstream/bus';

/** Kept a day beyond the longest window, then pruned. */
const POINT_RETENTION_MS = MAX_WINDOW_MS + 24 * 3600 * 1000;

/** The groups feeding the projections that routes read (and wait for: read-your-writes). */
const ORGANIZATIONS_GROUP = 'rules.organizations';
const USERS_GROUP = 'rules.users';

export function composeRules(config: RulesConfig, shared: SharedInfra = {}): Promise<RunningService> {
  return startService({
    name: 'rules',
    config,
    shared,
    topics: [organizationEventsTopic, userEventsTopic, customerEventsTopic],
    async compose(ctx) {
      const { store, logger, lifecycle } = ctx;
      const clock = systemClock;
      const rules = await RuleRepository.open(store);
      const points = await DataPointRepository.open(store);
      const users = await UserProjectionRepository.open(store);
      const organizations = await OrganizationProjectionRepository.open(store);
      const feature = rulesFeature(organizations, config.WELLSTREAM_RULES_ENABLED);
      const outbox = await ctx.openOutbox();
      const evaluation: EvaluationDeps = { rules, points, feature, outbox, logger };
      await outbox.start();
      // Exports and erasures of one user's rules and data points (docs/data-lifecycle.md).
      await answerUserDataRequests(ctx, outbox, rulesDataHolder(rules, points, users), shared.clock ?? clock);
      // One group per projection: replicas share the service's database, so each message needs
      // handling by one replica only.
      await ctx.consume(organizationEventsTopic, { groupId: ORGANIZATIONS_GROUP, handle: (event) => applyOrganizationEvent({ organizations }, event) });
      await ctx.consume(userEventsTopic, { groupId: USERS_GROUP, handle: (event) => applyUserEvent({ users, rules, points, logger }, event).then(() => undefined) });
      await ctx.consume(customerEventsTopic, {
        groupId: 'rules.data',
        commitEveryMs: VOLUME_COMMIT_EVERY_MS,
        handle: async (event, { batch }) => {
          const changed = await recordDataPoints({ rules, points }, event, batch);
          if (changed.length > 0) await evaluateUserRules(evaluation, event.user_id, changed, clock.now());
        },
      });
      lifecycle.started(
        'evaluation schedule',
        startScheduler({
          intervalMs: config.WELLSTREAM_RULES_EVALUATE_INTERVAL_MS,
          logger,
          run: async () => {
            const at = clock.now();
            await evaluateAllRules(evaluation, at);
            await points.pruneOlderThan(new Date(at.getTime() - POINT_RETENTION_MS).toISOString());
          },
        }),
      );
      const routes = rulesRoutes({ rules, points, feature, users: userDirectory(users, ctx.readYourWrites(userEventsTopic, USERS_GROUP, config.WELLSTREAM_RULES_USER_WAIT_MS)), clock });
      return { app: createStandardServiceApp(ctx, { openapi: rulesOpenApi, organizationOwners: { projection: organizations, groupId: ORGANIZATIONS_GROUP }, routes }) };
    },
  });
}
