/**
 * Evaluates rules at a given time (the caller's clock: the scheduler passes the wall clock, tests a
 * fake one). A rule is judged only once it has watched one full window since it was created (or
 * its criteria changed); then it counts the records with matching data in (now − window, now] and
 * compares the count with its threshold. It raises one `rule` event per episode: the trigger is
 * claimed by inserting the episode's claim document (so replicas evaluating at the same time raise
 * it once, also on FerretDB; rule.repository.ts), the claim and its event are written together
 * through the outbox (so a claimed trigger is always announced,
 * also across a crash or an event-log outage), and the rule is re-armed when the condition stops
 * holding.
 */
import { customerEventsTopic, RuleEvent } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import type { DataPointRepository } from '../../data-points/data-point.repository';
import type { RulesFeature } from '../../organizations/rules-feature';
import { conditionHolds, RuleDoc } from '../../rules/rule';
import { RuleRepository, TRIGGER_CLAIMS_COLLECTION, triggerClaimId } from '../../rules/rule.repository';
import { buildRuleEvent } from '../rule-event';

export interface EvaluationDeps {
  rules: RuleRepository;
  points: DataPointRepository;
  feature: RulesFeature;
  /** Rule events are written with the claim through it (the `events` topic). */
  outbox: Outbox;
  logger?: Logger;
}

export interface EvaluationResult {
  evaluated: number;
  events: RuleEvent[];
}

/** Another replica claimed the trigger first (or the rule changed): the outbox drops our event. */
class NotClaimed extends Error {}

/** Judges one rule at `now`; resolves to the event it raised, if any. */
export async function evaluateRule(deps: EvaluationDeps, rule: RuleDoc, now: Date): Promise<RuleEvent | null> {
  const nowIso = now.toISOString();
  if (rule.armed_at > nowIso) return null;
  const count = await deps.points.countRecords({
    userId: rule.user_id,
    metricType: rule.metric.type,
    unit: rule.metric.unit,
    origin: rule.metric.origin,
    fromIso: new Date(now.getTime() - rule.window_ms).toISOString(),
    toIso: nowIso,
  });
  if (!conditionHolds(count, rule.threshold)) {
    if (rule.triggered) await deps.rules.rearm(rule);
    return null;
  }
  if (rule.triggered) return null;
  const event = buildRuleEvent(rule, count, now);
  const claimed = { collection: TRIGGER_CLAIMS_COLLECTION, filter: { _id: triggerClaimId(rule), event_id: event.id } };
  try {
    await deps.outbox.write([deps.outbox.message(customerEventsTopic, event, claimed)], async () => {
      if (!(await deps.rules.claimTrigger(rule, nowIso, event.id))) throw new NotClaimed();
    });
  } catch (err) {
    if (err instanceof NotClaimed) return null;
    throw err;
  }
  // The event is ready in the outbox, so nothing consults the claim any more; a claim left by a
  // failure here is only a small document (the rule's `triggered` holds the episode either way).
  await deps.rules.settleTrigger(rule).catch(() => undefined);
  deps.logger?.info('rule triggered', { rule_id: rule._id, user_id: rule.user_id, count, event_id: event.id });
  return event;
}

/** Judges rules one by one, skipping organizations where the feature is off; one failure does not stop the rest. */
async function evaluateMany(deps: EvaluationDeps, rules: RuleDoc[], now: Date, enabled: Map<string, boolean>): Promise<EvaluationResult> {
  const result: EvaluationResult = { evaluated: 0, events: [] };
  for (const rule of rules) {
    let on = enabled.get(rule.organization_id);
    if (on === undefined) {
      on = await deps.feature.enabledFor(rule.organization_id);
      enabled.set(rule.organization_id, on);
    }
    if (!on) continue;
    try {
      const event = await evaluateRule(deps, rule, now);
      result.evaluated++;
      if (event) result.events.push(event);
    } catch (err) {
      deps.logger?.error('rule evaluation failed', { rule_id: rule._id, error: err });
    }
  }
  return result;
}

/** The schedule's pass: every armed rule, page by page (so missing data is noticed without new data). */
export async function evaluateAllRules(deps: EvaluationDeps, now: Date, pageSize = 200): Promise<EvaluationResult> {
  const total: EvaluationResult = { evaluated: 0, events: [] };
  const enabled = new Map<string, boolean>();
  const nowIso = now.toISOString();
  let after: string | undefined;
  for (;;) {
    const page = await deps.rules.armedPage(nowIso, after, pageSize);
    const r = await evaluateMany(deps, page, now, enabled);
    total.evaluated += r.evaluated;
    total.events.push(...r.events);
    if (page.length < pageSize) return total;
    after = page[page.length - 1]._id;
  }
}

/** After new data of a user: that user's rules watching the changed metric types. */
export async function evaluateUserRules(deps: EvaluationDeps, userId: string, metricTypes: string[], now: Date): Promise<EvaluationResult> {
  const rules: RuleDoc[] = [];
  for (const type of new Set(metricTypes)) rules.push(...(await deps.rules.watchingMetric(userId, type)));
  return evaluateMany(deps, rules, now, new Map());
}
