import { acceptanceSuite } from './acceptance.suite';
import { badInputSuite } from './bad-input.suite';

jest.setTimeout(60_000);
acceptanceSuite('embedded');
badInputSuite('embedded');
