/**
 * Persistence of rules (and their evaluation state) over the document-store port.
 */
import type { Collection, DocumentStore, Filter } from '@wellstream/store';
import type { RuleDoc } from './rule';

export const RULES_COLLECTION = 'rules';

export class RuleRepository {
  private constructor(readonly rules: Collection<RuleDoc>) {}

  static async open(store: DocumentStore): Promise<RuleRepository> {
    return new RuleRepository(
      await store.collection<RuleDoc>({
        name: RULES_COLLECTION,
        indexes: [{ fields: { user_id: 1, created_at: 1, _id: 1 } }, { fields: { armed_at: 1 } }, { fields: { user_id: 1, 'metric.type': 1 } }],
      }),
    );
  }

  insert = (rule: RuleDoc) => this.rules.insertOne(rule);

  listForUser = (userId: string) => this.rules.find({ user_id: userId }, { sort: { created_at: 1, _id: 1 } });

  findForUser = (userId: string, ruleId: string) => this.rules.findOne({ _id: ruleId, user_id: userId });

  watchingMetric = (userId: string, metricType: string) => this.rules.find({ user_id: userId, 'metric.type': metricType });

  async deleteOne(userId: string, ruleId: string): Promise<boolean> {
    return (await this.rules.deleteMany({ _id: ruleId, user_id: userId })) > 0;
  }

  deleteForUser = (userId: string) => this.rules.deleteMany({ user_id: userId });

  /** Updates a rule only if it still is at `revision` (so a concurrent edit wins over a stale writer). */
  updateAtRevision = (ruleId: string, revision: number, set: Partial<RuleDoc>) =>
    this.rules.findOneAndUpdate({ _id: ruleId, revision }, { $set: set });

  update = (userId: string, ruleId: string, set: Partial<RuleDoc>) => this.rules.findOneAndUpdate({ _id: ruleId, user_id: userId }, { $set: set });

  /**
   * Claims a trigger: succeeds for exactly one caller (replica) while the rule is at `revision`
   * and not triggered yet.
   */
  claimTrigger = (ruleId: string, revision: number, triggeredAt: string, eventId: string) =>
    this.rules.findOneAndUpdate(
      { _id: ruleId, revision, triggered: false },
      { $set: { triggered: true, triggered_at: triggeredAt, last_event_id: eventId } },
    );

  /** Re-arms a rule whose condition stopped holding. */
  rearm = (ruleId: string, revision: number) =>
    this.rules.findOneAndUpdate({ _id: ruleId, revision, triggered: true }, { $set: { triggered: false, triggered_at: null } });

  /** One page of armed rules (armed_at ≤ now), in _id order after `afterId`. */
  armedPage(nowIso: string, afterId: string | undefined, limit: number): Promise<RuleDoc[]> {
    const filter: Filter = { armed_at: { $lte: nowIso } };
    if (afterId) filter._id = { $gt: afterId };
    return this.rules.find(filter, { sort: { _id: 1 }, limit });
  }
}
