import { mergedRecordsSuite } from './merged-records.suite';

mergedRecordsSuite('embedded');
