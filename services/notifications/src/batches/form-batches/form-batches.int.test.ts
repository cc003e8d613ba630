import { createLogger } from '@wellstream/logging';
import { MongoDocumentStore } from '@wellstream/store';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { formBatchesSuite } from './form-batches.suite';

formBatchesSuite('mongodb', () => new MongoDocumentStore({ url: realServers().mongoUrl, dbName: uniqueTestName('notifform'), logger: createLogger('test') }));
