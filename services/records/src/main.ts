/**
 * Distributed entry point: one records service process (node services/records/dist/main.js).
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeRecords } from './compose';
import { loadRecordsConfig } from './config';

runServiceMain('records', () => composeRecords(loadRecordsConfig()));
