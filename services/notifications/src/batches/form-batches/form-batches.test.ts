import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { formBatchesSuite } from './form-batches.suite';

formBatchesSuite('sqlite', () => new SqliteDocumentStore(':memory:'));
