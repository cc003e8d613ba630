/** The data lifecycle suite (data-lifecycle.suite.ts) on Kafka, the MongoDB API and Redis. */
import { dataLifecycleSuite } from './data-lifecycle.suite';

jest.setTimeout(240_000);

describe('data lifecycle (distributed)', () => dataLifecycleSuite('distributed'));
