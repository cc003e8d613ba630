import { acceptanceSuite } from './acceptance.suite';
import { badInputSuite } from './bad-input.suite';

jest.setTimeout(120_000);
acceptanceSuite('distributed');
badInputSuite('distributed');
