/**
 * The rule: an adherence criterion on one user's data ("fewer than 1 body_weight in P3D"), plus
 * the evaluation state it carries (when it started watching, whether its condition is already
 * reported). The state lives on the rule document so deleting a rule deletes its state.
 */
import type { MetricOrigin } from '@wellstream/catalog';
import { COMPARATORS, RULE_TYPES } from '@wellstream/catalog';

// Published values (the catalog's, as the endpoints declare them).
export { COMPARATORS, RULE_TYPES };
export type RuleType = (typeof RULE_TYPES)[number];

export type Comparator = (typeof COMPARATORS)[number];

/** Longest accepted window: a rule must be able to judge a window within a year. */
export const MAX_WINDOW_MS = 365 * 24 * 3600 * 1000;
/** Shortest accepted window (windows are judged at least every evaluation interval anyway). */
export const MIN_WINDOW_MS = 1000;

export interface RuleMetric {
  type: string;
  sub_type: string | null;
  unit: string | null;
  origin: MetricOrigin | null;
}

export interface RuleThreshold {
  value: number;
  comparator: Comparator;
}

/** What a customer sends (create and update). */
export interface RuleInput {
  type: RuleType;
  window: string;
  message: string;
  metric: RuleMetric;
  threshold: RuleThreshold;
}

export interface RuleDoc extends RuleInput {
  _id: string;
  user_id: string;
  uid: string;
  organization_id: string;
  customer_id: string;
  window_ms: number;
  created_at: string;
  updated_at: string;
  /** When the rule began observing with its current criteria (creation, or the last criteria change). */
  watching_since: string;
  /** watching_since + window: before this the rule has not watched one full window and never triggers. */
  armed_at: string;
  /** Bumped on every criteria change, so an evaluation of older criteria cannot claim a trigger. */
  revision: number;
  /** True from a trigger until the condition stops holding (one event per episode). */
  triggered: boolean;
  /** Re-arms so far (absent: none): numbers the episode, whose trigger claim is keyed by it (rule.repository.ts). */
  episode?: number;
  triggered_at: string | null;
  last_event_id: string | null;
}

/** The rule as the interface shows it. */
export interface RuleView extends RuleInput {
  id: string;
  created_at: string;
  updated_at: string;
  deleted_at?: string;
}

export function ruleView(r: RuleDoc): RuleView {
  return {
    id: r._id,
    type: r.type,
    window: r.window,
    message: r.message,
    metric: { type: r.metric.type, sub_type: r.metric.sub_type, unit: r.metric.unit, origin: r.metric.origin },
    threshold: { value: r.threshold.value, comparator: r.threshold.comparator },
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function conditionHolds(count: number, threshold: RuleThreshold): boolean {
  switch (threshold.comparator) {
    case 'less_than':
      return count < threshold.value;
    case 'greather_than':
      return count > threshold.value;
    case 'equal_to':
      return count === threshold.value;
  }
}

/** Whether two inputs judge the same thing (a message-only edit keeps the rule's observation). */
export function sameCriteria(a: RuleInput, b: RuleInput): boolean {
  return (
    a.type === b.type &&
    a.window === b.window &&
    a.metric.type === b.metric.type &&
    a.metric.unit === b.metric.unit &&
    a.metric.origin === b.metric.origin &&
    a.metric.sub_type === b.metric.sub_type &&
    a.threshold.value === b.threshold.value &&
    a.threshold.comparator === b.threshold.comparator
  );
}

export const armedAt = (watchingSince: Date, windowMs: number) => new Date(watchingSince.getTime() + windowMs).toISOString();
