/**
 * Distributed entry point: one streams service process (node services/streams/dist/main.js).
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeStreams } from './compose';
import { loadStreamsConfig } from './config';

runServiceMain('streams', () => composeStreams(loadStreamsConfig()));
