import { createLogger } from '@wellstream/logging';
import { MongoDocumentStore } from '@wellstream/store';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { pushSchedulerSuite } from './push-scheduler.suite';

jest.setTimeout(60_000);
pushSchedulerSuite('mongodb', () => new MongoDocumentStore({ url: realServers().mongoUrl, dbName: uniqueTestName('notifsched'), logger: createLogger('test') }));
