/**
 * Persistence of rules (and their evaluation state) over the document-store port.
 */
import { Collection, DocumentStore, Filter, insertClaim } from '@wellstream/store';
import type { RuleDoc } from './rule';

export const RULES_COLLECTION = 'rules';

/**
 * Trigger claims: one small document per episode being raised, `<rule id>#<revision>.<episode>`,
 * taken by inserting it (libs/store claims.ts: FerretDB runs a conditional update as a read and
 * then a write, so two replicas could both claim a trigger on the rule itself). It says which
 * event the episode raised (the outbox's state check) until the rule is marked triggered and the
 * event is on its way; then it goes.
 */
export const TRIGGER_CLAIMS_COLLECTION = 'rule_trigger_claims';

interface TriggerClaimDoc {
  _id: string;
  event_id: string;
  triggered_at: string;
}

export const triggerClaimId = (rule: RuleDoc) => `${rule._id}#${rule.revision}.${rule.episode ?? 0}`;

/** The rule still at the revision and episode it was read at (rules stored before episodes had none). */
const sameEpisode = (rule: RuleDoc): Filter => ({ _id: rule._id, revision: rule.revision, episode: rule.episode === undefined ? { $exists: false } : rule.episode });

export class RuleRepository {
  private constructor(
    readonly rules: Collection<RuleDoc>,
    private readonly claims: Collection<TriggerClaimDoc>,
  ) {}

  static async open(store: DocumentStore): Promise<RuleRepository> {
    return new RuleRepository(
      await store.collection<RuleDoc>({
        name: RULES_COLLECTION,
        indexes: [{ fields: { user_id: 1, created_at: 1, _id: 1 } }, { fields: { armed_at: 1 } }, { fields: { user_id: 1, 'metric.type': 1 } }],
      }),
      await store.collection<TriggerClaimDoc>({ name: TRIGGER_CLAIMS_COLLECTION }),
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
   * Claims the trigger of the rule's current episode, as read: succeeds for exactly one caller
   * (replica), and only while the rule is still at that revision and episode and not triggered.
   * The winner's insert lands first, then the rule is marked; a caller that read the rule before
   * an earlier winner marked it and inserts after that winner's claim went fails at the mark.
   */
  async claimTrigger(rule: RuleDoc, triggeredAt: string, eventId: string): Promise<boolean> {
    const id = triggerClaimId(rule);
    if (!(await insertClaim(this.claims, { _id: id, event_id: eventId, triggered_at: triggeredAt }))) {
      await this.completeClaimed(rule, id);
      return false;
    }
    if (await this.markTriggered(rule, triggeredAt, eventId)) return true;
    // Marked meanwhile by a caller that found this claim (below): the episode is ours all the same.
    if ((await this.rules.findOne(sameEpisode(rule)))?.last_event_id === eventId) return true;
    await this.claims.deleteMany({ _id: id });
    return false;
  }

  /** The trigger is on the rule and its event is on its way: its claim is no longer needed. */
  async settleTrigger(rule: RuleDoc): Promise<void> {
    await this.claims.deleteMany({ _id: triggerClaimId(rule) });
  }

  /**
   * Another caller holds the episode's claim: should it have died before marking the rule (its
   * event still goes out: the claim confirms it), the rule is marked here, or it would stay
   * untriggered, never re-armed, with its episode claimed.
   */
  private async completeClaimed(rule: RuleDoc, id: string): Promise<void> {
    if (rule.triggered) return;
    const claim = await this.claims.findOne({ _id: id });
    if (claim) await this.markTriggered(rule, claim.triggered_at, claim.event_id);
  }

  private markTriggered(rule: RuleDoc, triggeredAt: string, eventId: string): Promise<RuleDoc | null> {
    return this.rules.findOneAndUpdate({ ...sameEpisode(rule), triggered: false }, { $set: { triggered: true, triggered_at: triggeredAt, last_event_id: eventId } });
  }

  /** Re-arms a rule whose condition stopped holding: its next episode begins. */
  rearm = (rule: RuleDoc) =>
    this.rules.findOneAndUpdate({ ...sameEpisode(rule), triggered: true }, { $set: { triggered: false, triggered_at: null, episode: (rule.episode ?? 0) + 1 } });

  /** One page of armed rules (armed_at ≤ now), in _id order after `afterId`. */
  armedPage(nowIso: string, afterId: string | undefined, limit: number): Promise<RuleDoc[]> {
    const filter: Filter = { armed_at: { $lte: nowIso } };
    if (afterId) filter._id = { $gt: afterId };
    return this.rules.find(filter, { sort: { _id: 1 }, limit });
  }
}
