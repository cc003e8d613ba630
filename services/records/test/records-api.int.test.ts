import { recordsApiSuite } from './records-api.suite';

recordsApiSuite('distributed');
