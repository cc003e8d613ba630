import { sharedReaderSuite } from './shared-reader.suite';

sharedReaderSuite('distributed');
