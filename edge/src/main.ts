/**
 * Distributed entry point of the edge (node edge/dist/main.js, its own image): the shared main's start, ready line, bounded stop on SIGTERM, and a config
 * error on stderr with exit 1.
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeEdge } from './compose';
import { loadEdgeConfig } from './config';

runServiceMain('edge', () => composeEdge(loadEdgeConfig()));
