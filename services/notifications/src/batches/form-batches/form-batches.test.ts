import { SqliteDocumentStore } from '@wellstream/store';
import { formBatchesSuite } from './form-batches.suite';

formBatchesSuite('sqlite', () => new SqliteDocumentStore(':memory:'));
