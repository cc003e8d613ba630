/**
 * What the rule endpoints' use cases need: the feature switch, the user directory, the rule
 * repository and a clock (tests pass a fake one).
 */
import { randomBytes } from 'node:crypto';
import type { DataPointRepository } from '../data-points/data-point.repository';
import type { RuleOwnerDeps } from './rule-owner';
import type { RuleRepository } from './rule.repository';
import type { Clock } from '@wellstream/clock';

export interface RuleUseCaseDeps extends RuleOwnerDeps {
  rules: RuleRepository;
  points: DataPointRepository;
  clock: Clock;
}

/**
 * Drops the data points of a metric no rule of the user watches any more (after a delete, or an
 * update to another metric). Points are only kept for watched metrics; a rule watching the metric
 * later starts its own observation, so it never needs the old ones.
 */
export async function forgetUnwatchedMetric(deps: RuleUseCaseDeps, userId: string, metricType: string): Promise<void> {
  if ((await deps.rules.watchingMetric(userId, metricType)).length === 0) await deps.points.deleteForUserMetric(userId, metricType);
}

export const newRuleId = () => `rul_${randomBytes(12).toString('hex')}`;
