import { sharedReaderSuite } from './shared-reader.suite';

sharedReaderSuite('embedded');
