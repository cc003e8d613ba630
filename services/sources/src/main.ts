/**
 * Distributed entry point: one sources service process (node services/sources/dist/main.js).
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeSources } from './compose';
import { loadSourcesConfig } from './config';

runServiceMain('sources', () => composeSources(loadSourcesConfig()));
