/** The data lifecycle suite (data-lifecycle.suite.ts) on the embedded runtime. */
import { dataLifecycleSuite } from './data-lifecycle.suite';

jest.setTimeout(180_000);

describe('data lifecycle (embedded)', () => dataLifecycleSuite('embedded'));
