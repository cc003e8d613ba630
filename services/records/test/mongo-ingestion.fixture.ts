/**
 * Ingestion on the real MongoDB-API server with nothing else around it: the records use case, its
 * repositories and the outbox on a fresh database (command monitoring on, so a test can watch what
 * a request sends), the outbox publishing to an embedded event log in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { mongo } from 'mongoose';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { customerEventsTopic, sourceDetectionsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { MongoDocumentStore } from '@wellstream/store/adapters';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { BatchByKey } from '../src/records/batch-by-key';
import { IngestDeps, MAX_BATCH_RECORDS } from '../src/records/ingest-records/ingest-records.usecase';
import { RecordKeysRepository } from '../src/records/record-keys.repository';
import { RecordRepository } from '../src/records/record.repository';
import { UserProjectionRepository } from '../src/users/user-projection.repository';

export interface MongoIngestion {
  store: MongoDocumentStore;
  log: EmbeddedEventLog;
  outbox: Outbox;
  deps: IngestDeps;
  /** The driver's client, for `commandStarted` events. */
  client: mongo.MongoClient;
  close(): Promise<void>;
}

export async function openMongoIngestion(label: string, logger: Logger): Promise<MongoIngestion> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));
  const { mongoUrl } = realServers();
  const store = new MongoDocumentStore({ url: `${mongoUrl}${mongoUrl.includes('?') ? '&' : '?'}monitorCommands=true`, dbName: uniqueTestName(label), logger });
  const log = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger });
  for (const t of [customerEventsTopic, sourceDetectionsTopic]) await log.ensureTopic(t.spec);
  const outbox = await Outbox.open(store, { eventLog: log, logger, drainMs: 60_000 });
  const deps: IngestDeps = {
    records: await RecordRepository.open(store),
    keys: await RecordKeysRepository.open(store),
    users: await UserProjectionRepository.open(store),
    outbox,
    batches: new BatchByKey(MAX_BATCH_RECORDS),
    clock: { now: () => new Date() },
    counts: { add: () => undefined },
  };
  const client = (store as unknown as { conn: { getClient(): mongo.MongoClient } }).conn.getClient();
  return {
    store,
    log,
    outbox,
    deps,
    client,
    async close() {
      await outbox.stop();
      await store.dropForTests();
      await store.close();
      await log.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
