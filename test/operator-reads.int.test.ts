import { operatorReadsSuite } from './operator-reads.suite';

jest.setTimeout(120_000);
operatorReadsSuite('distributed');
