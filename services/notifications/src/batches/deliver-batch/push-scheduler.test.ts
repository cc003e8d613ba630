import { SqliteDocumentStore } from '@wellstream/store';
import { pushSchedulerSuite } from './push-scheduler.suite';

pushSchedulerSuite('sqlite', () => new SqliteDocumentStore(':memory:'));
