import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { pushSchedulerSuite } from './push-scheduler.suite';

pushSchedulerSuite('sqlite', () => new SqliteDocumentStore(':memory:'));
