import { operatorReadsSuite } from './operator-reads.suite';

jest.setTimeout(60_000);
operatorReadsSuite('embedded');
