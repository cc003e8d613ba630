/**
 * What the rule endpoints' use cases need: the feature switch, the user directory, the rule
 * repository and a clock (tests pass a fake one).
 */
import { randomBytes } from 'node:crypto';
import type { RuleOwnerDeps } from './rule-owner';
import type { RuleRepository } from './rule.repository';

export interface RuleUseCaseDeps extends RuleOwnerDeps {
  rules: RuleRepository;
  now: () => Date;
}

export const newRuleId = () => `rul_${randomBytes(12).toString('hex')}`;
