export { composeRules } from './compose';
export { loadRulesConfig, rulesConfigSchema } from './config';
export type { RulesConfig } from './config';
