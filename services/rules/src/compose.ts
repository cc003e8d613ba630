/**
 * The rules service's composition root: picks adapters from config, wires use cases to HTTP, to
 * the topics it consumes (organizations, users, events) and to the evaluation schedule.
 */
import { parseGatewayKeys } from '@wellstream/config';
import { customerEventsTopic, consumeEvents, organizationEventsTopic, userEventsTopic, consumerGauges } from '@wellstream/contracts';
import { startHttpServer, ServiceMetrics } from '@wellstream/http';
import { createLogger, setLogLevel } from '@wellstream/logging';
import { Outbox, outboxGauges } from '@wellstream/outbox';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import type { Subscription } from '@wellstream/bus';
import { createRulesApp } from './app';
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

/** Kept a day beyond the longest window, then pruned. */
const POINT_RETENTION_MS = MAX_WINDOW_MS + 24 * 3600 * 1000;

export async function composeRules(config: RulesConfig, shared: SharedInfra = {}): Promise<RunningService> {
  setLogLevel(config.WELLSTREAM_LOG_LEVEL);
  const logger = createLogger('rules');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'rules', logger, shared);
  const subscriptions: Subscription[] = [];
  const now = () => new Date();
  let outbox: Outbox | undefined;
  try {
    const rules = await RuleRepository.open(store);
    const points = await DataPointRepository.open(store);
    const users = await UserProjectionRepository.open(store);
    const organizations = await OrganizationProjectionRepository.open(store);
    const feature = rulesFeature(organizations, config.WELLSTREAM_RULES_ENABLED);
    outbox = await Outbox.open(store, { eventLog, logger, staleMs: config.WELLSTREAM_OUTBOX_STALE_MS, drainMs: config.WELLSTREAM_OUTBOX_DRAIN_MS });
    const metrics = new ServiceMetrics('rules');
    for (const g of [...outboxGauges(outbox), ...consumerGauges('rules.')]) metrics.gauge(g.name, g.help, g.read, 'labels' in g ? g.labels : []);
    const evaluation: EvaluationDeps = {
      rules,
      points,
      feature,
      outbox,
      logger,
    };

    for (const topic of [organizationEventsTopic, userEventsTopic, customerEventsTopic]) await eventLog.ensureTopic(topic.spec);
    await outbox.start();
    // One group per projection: replicas share the service's database, so each message needs
    // handling by one replica only.
    subscriptions.push(
      await consumeEvents(eventLog, organizationEventsTopic, {
        groupId: 'rules.organizations',
        logger,
        handle: (event) => applyOrganizationEvent({ organizations }, event),
      }),
      await consumeEvents(eventLog, userEventsTopic, {
        groupId: 'rules.users',
        logger,
        handle: async (event) => {
          await applyUserEvent({ users, rules, points, logger }, event);
        },
      }),
      await consumeEvents(eventLog, customerEventsTopic, {
        groupId: 'rules.data',
        logger,
        handle: async (event) => {
          const changed = await recordDataPoints({ rules, points }, event);
          if (changed.length > 0) await evaluateUserRules(evaluation, event.user_id, changed, now());
        },
      }),
    );

    const app = createRulesApp({
      gatewayKeys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS),
      organizationOwners: organizations,
      logger,
      rules,
      points,
      feature,
      users: userDirectory(users, { waitMs: config.WELLSTREAM_RULES_USER_WAIT_MS }),
      now,
      health: { store: () => store.healthy(), event_log: () => eventLog.healthy() },
      metrics,
    });
    const http = await startHttpServer(app, { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT });
    const scheduler = startScheduler({
      intervalMs: config.WELLSTREAM_RULES_EVALUATE_INTERVAL_MS,
      logger,
      run: async () => {
        const at = now();
        await evaluateAllRules(evaluation, at);
        await points.pruneOlderThan(new Date(at.getTime() - POINT_RETENTION_MS).toISOString());
      },
    });

    return {
      name: 'rules',
      handler: app,
      url: http.url,
      port: http.port,
      async stop() {
        await scheduler.stop();
        await http.close();
        for (const s of subscriptions) await s.stop();
        await outbox?.stop();
        await store.close();
        if (!shared.eventLog) await eventLog.close();
      },
    };
  } catch (err) {
    for (const s of subscriptions) await s.stop().catch(() => undefined);
    await outbox?.stop().catch(() => undefined);
    await store.close().catch(() => undefined);
    if (!shared.eventLog) await eventLog.close().catch(() => undefined);
    throw err;
  }
}
