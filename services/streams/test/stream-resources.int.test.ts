import { streamResourcesSuite } from './stream-resources.suite';

streamResourcesSuite('distributed');
