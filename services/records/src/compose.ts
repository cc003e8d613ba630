/**
 * The records service's composition root: picks adapters from config, wires use cases, starts the
 * projections, the outbox relay, the demo source and HTTP. Stops them in reverse order.
 */
import { parseGatewayKeys } from '@wellstream/config';
import type { Subscription } from '@wellstream/bus';
import { consumerGauges, customerEventsTopic, sourceDetectionsTopic } from '@wellstream/contracts';
import { ServiceMetrics, startHttpServer } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { Outbox, outboxGauges } from '@wellstream/outbox';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import { createRecordsApp } from './app';
import type { RecordsConfig } from './config';
import { DemoSource } from './demo/demo-source';
import { OrganizationProjectionRepository } from './organizations/organization-projection.repository';
import { ingestRecords, IngestDeps, MAX_BATCH_RECORDS } from './records/ingest-records/ingest-records.usecase';
import { RecordRepository } from './records/record.repository';
import { BatchByKey } from './records/batch-by-key';
import { consumeProjections } from './users/user-events.consumer';
import { UserProjectionRepository } from './users/user-projection.repository';
import { mobileUserFinder } from './users/mobile-user-finder';

export async function composeRecords(config: RecordsConfig, shared: SharedInfra = {}): Promise<RunningService> {
  const logger = createLogger('records');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'records', logger, shared);
  const clock = () => new Date();
  const subscriptions: Subscription[] = [];
  let outbox: Outbox | undefined;
  let demo: DemoSource | undefined;
  const stopAll = async () => {
    await demo?.stop();
    for (const s of subscriptions) await s.stop();
    await outbox?.stop();
    await store.close();
    if (!shared.eventLog) await eventLog.close();
  };
  try {
    await eventLog.ensureTopic(customerEventsTopic.spec);
    await eventLog.ensureTopic(sourceDetectionsTopic.spec);
    const records = await RecordRepository.open(store);
    const users = await UserProjectionRepository.open(store);
    const organizations = await OrganizationProjectionRepository.open(store);
    outbox = await Outbox.open(store, {
      eventLog,
      logger,
      clock,
      staleMs: config.WELLSTREAM_OUTBOX_STALE_MS,
      drainMs: config.WELLSTREAM_OUTBOX_DRAIN_MS,
    });
    const metrics = new ServiceMetrics('records');
    for (const g of [...outboxGauges(outbox), ...consumerGauges('records.')]) metrics.gauge(g.name, g.help, g.read, 'labels' in g ? g.labels : []);
    const ingest: IngestDeps = { records, outbox, users, batches: new BatchByKey(MAX_BATCH_RECORDS), clock };
    demo = new DemoSource({
      users,
      ingest: (user, body) => ingestRecords(ingest, user, body),
      logger,
      clock,
      tickMs: config.WELLSTREAM_DEMO_TICK_MS,
      backfillDays: config.WELLSTREAM_DEMO_BACKFILL_DAYS,
    });
    const d = demo;
    // Publish what a previous run stored but did not get onto the log, before taking new writes.
    await outbox.start();
    subscriptions.push(...(await consumeProjections(eventLog, logger, { users, organizations, onUserChanged: (u) => d.reconcile(u) })));
    await demo.start();
    const app = createRecordsApp({
      gatewayKeys: parseGatewayKeys(config.WELLSTREAM_GATEWAY_KEYS),
      organizationOwners: organizations,
      logger,
      health: { store: () => store.healthy(), event_log: () => eventLog.healthy() },
      metrics,
      ingest,
      mobileUsers: mobileUserFinder(users, { waitMs: config.WELLSTREAM_RECORDS_USER_WAIT_MS }),
      list: { records, users, organizations, clock },
    });
    const http = await startHttpServer(app, { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT });
    return {
      name: 'records',
      handler: app,
      url: http.url,
      port: http.port,
      async stop() {
        await http.close();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll().catch(() => undefined);
    throw err;
  }
}
