/**
 * The records service on the shared skeleton: its projections, the outbox its records leave by,
 * and its routes.
 */
import { auditLogTopic, customerEventsTopic, organizationEventsTopic, SOURCE_CONNECTION_COPIES, sourceConnectionsTopic, sourceDetectionsTopic, sourceRecordsTopic, userEventsTopic } from '@wellstream/contracts';
import type { Request } from 'express';
import { createStandardServiceApp, idempotentAnswers, ORGANIZATION_CATCH_UP_MS, RunningService, SharedInfra, startService } from '@wellstream/runtime';
import { recordsRoutes } from './app';
import { recordsEndpoint } from './records-endpoints';
import { invalidMobileToken } from './records/record.errors';
import type { RecordsConfig } from './config';
import { recordsOpenApi } from '@wellstream/endpoints';
import { openOrganizationProjection } from './organizations/organization-projection';
import { IngestDeps, MAX_BATCH_RECORDS } from './records/ingest-records/ingest-records.usecase';
import { RecordRepository } from './records/record.repository';
import { BatchByKey } from './records/batch-by-key';
import { ingestSourceRecords } from './records/ingest-source-records/ingest-source-records.usecase';
import { consumeProjections, ORGANIZATION_PROJECTION_GROUP, USER_PROJECTION_GROUP } from './users/user-events.consumer';
import { UserProjectionRepository } from './users/user-projection.repository';
import { mobileUserFinder } from './users/mobile-user-finder';
import { systemClock } from '@wellstream/clock';
import { answerUserDataRequests } from '@wellstream/runtime';
import { recordsDataHolder } from './lifecycle/records-data-holder';
import { RecordKeysRepository } from './records/record-keys.repository';
import { SourcePriorityRepository } from './priority/source-priority.repository';
import { SourceConnectionProjection } from './availability/source-connection-projection';
import { IngestionCountRepository } from './ingestion-stats/ingestion-count.repository';
import { IngestionCounter } from './ingestion-stats/ingestion-counter';
import { ExportJobRepository } from './fhir/export/export-job.repository';
import { TimeSlice } from '@wellstream/bus';
import { ExportWorker } from './fhir/export/export-worker';
import { VOLUME_COMMIT_EVERY_MS } from '@wellstream/bus';

export function composeRecords(config: RecordsConfig, shared: SharedInfra = {}): Promise<RunningService> {
  return startService({
    name: 'records',
    config,
    shared,
    topics: [customerEventsTopic, sourceDetectionsTopic, sourceRecordsTopic, sourceConnectionsTopic, auditLogTopic],
    async compose(ctx) {
      const { store, eventLog, logger, lifecycle } = ctx;
      const clock = systemClock;
      const records = await RecordRepository.open(store);
      const keys = await RecordKeysRepository.open(store);
      const priorities = await SourcePriorityRepository.open(store);
      const connections = await SourceConnectionProjection.open(store);
      const users = await UserProjectionRepository.open(store);
      const organizations = await openOrganizationProjection(store);
      const outbox = await ctx.openOutbox({ clock });
      const exportJobs = await ExportJobRepository.open(store);
      // Its own slice: a running export gives way to other work between pages.
      const exportSlice = new TimeSlice({ givesWay: true });
      const exportWorker = new ExportWorker({
        jobs: exportJobs,
        records,
        users,
        organizations,
        logger,
        clock: shared.clock ?? clock,
        pause: () => exportSlice.pause(),
        leaseMs: config.WELLSTREAM_FHIR_EXPORT_LEASE_MS,
        retentionMs: config.WELLSTREAM_FHIR_EXPORT_RETENTION_MS,
      });
      const ingestionCounts = await IngestionCountRepository.open(store);
      const counter = new IngestionCounter(ingestionCounts, {
        flushMs: config.WELLSTREAM_INGESTION_COUNT_FLUSH_MS,
        onError: (err) => logger.warn('ingestion counts not written; retrying at the next tick', { error: err }),
      });
      counter.start();
      // Stopped (and written out a last time) before the store closes.
      lifecycle.onStop('ingestion counts', () => counter.stop());
      const ingest: IngestDeps = { records, keys, outbox, users, batches: new BatchByKey(MAX_BATCH_RECORDS), clock, counts: counter };
      // Publish what a previous run stored but did not get onto the log, before taking new writes.
      await outbox.start();
      // Exports and erasures of one user's records (docs/data-lifecycle.md).
      await answerUserDataRequests(ctx, outbox, await recordsDataHolder(store), shared.clock ?? clock);
      for (const s of await consumeProjections(eventLog, logger, { users, organizations })) lifecycle.started('projection', s);
      // Provider data fetched by the sources service: the same ingestion as a mobile post.
      const freshUsers = ctx.readYourWrites(userEventsTopic, USER_PROJECTION_GROUP, config.WELLSTREAM_RECORDS_USER_WAIT_MS);
      const userById = async (id: string) => (await freshUsers.find(() => users.byId(id))) ?? null;
      await ctx.consume(sourceRecordsTopic, { groupId: 'records.source-records', fromBeginning: true, commitEveryMs: VOLUME_COMMIT_EVERY_MS, handle: (event) => ingestSourceRecords({ ingest, logger, userById }, event) });
      // Provider connections' status, syncs and backfills, for the availability endpoint.
      await ctx.consume(sourceConnectionsTopic, { groupId: SOURCE_CONNECTION_COPIES.records, fromBeginning: true, handle: (event) => connections.apply(event) });
      // An operator read right after creating the organization waits for the projection to have it.
      const freshOrganizations = ctx.readYourWrites(organizationEventsTopic, ORGANIZATION_PROJECTION_GROUP, ORGANIZATION_CATCH_UP_MS);
      const mobileUsers = mobileUserFinder(users, freshUsers);
      const answers = await idempotentAnswers(store);
      // A deleted user's mobile token answers 401 before any stored answer is read; the answers go too.
      await ctx.consume(userEventsTopic, { groupId: 'records.idempotent-answers', fromBeginning: false, handle: async (e) => void (e.type === 'user.deleted' && (await answers.forgetUser(e.user.id))) });
      const routes = recordsRoutes({
        ingest,
        mobileUsers,
        list: { records, users, organizations, clock, priorities },
        priority: { priorities, organizations, clock },
        availability: { users, keys, connections },
        fhir: { records, users, organizations, clock, outbox, logger },
        fhirExport: { jobs: exportJobs, worker: exportWorker, clock, outbox, logger, linkKey: ctx.config.WELLSTREAM_GATEWAY_KEYS.split(',')[0] },
        ingestion: { counts: ingestionCounts, flush: () => counter.flush(), organizations: { find: (id) => freshOrganizations.find(() => organizations.find(id)) }, clock },
      });
      const mobileCaller = async (req: Request) => {
        const token = typeof req.query.token === 'string' ? req.query.token : '';
        if (!token || !(await mobileUsers.find(token))) throw invalidMobileToken();
        return token;
      };
      return {
        app: createStandardServiceApp(ctx, {
          openapi: recordsOpenApi,
          organizationOwners: { projection: organizations, groupId: ORGANIZATION_PROJECTION_GROUP },
          routes,
          idempotent: { answers, routes: [{ route: recordsEndpoint('ingestMobileRecords'), publicCaller: mobileCaller }] },
        }),
        listening: () => {
          // Takes over exports whose replica stopped midway, and removes expired ones. Registered
          // after the HTTP server so that a stop ends the exports first: the HTTP server's close
          // waits for open connections, and an export must not run on meanwhile as if alive.
          exportWorker.start();
          lifecycle.onStop('FHIR exports', () => exportWorker.stop());
          return {};
        },
      };
    },
  });
}
