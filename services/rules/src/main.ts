/**
 * Distributed entry point: one rules service process (node services/rules/dist/main.js).
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeRules } from './compose';
import { loadRulesConfig } from './config';

runServiceMain('rules', () => composeRules(loadRulesConfig()));
