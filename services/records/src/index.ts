export { composeRecords } from './compose';
export { loadRecordsConfig, recordsConfigSchema } from './config';
export type { RecordsConfig } from './config';
