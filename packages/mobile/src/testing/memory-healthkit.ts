/**
 * An in-memory HealthKit behind the same functions the bridge exports (HealthKitBridge): samples
 * and deletions carry a sequence number, an anchor is the last number a query saw, so anchored
 * queries behave as HKAnchoredObjectQuery does (first query: everything matching the date filter
 * and no deletions; later: what changed after the anchor, deletions included, `limit` at most).
 * For tests, the benchmark and the README walk-through: no phone is attached here.
 */
import type { CategorySample, QuantitySample, WorkoutSample } from '@kingstinct/react-native-healthkit';
import type { HealthKitBridge } from '../bridges/healthkit-source';
import { HK_WORKOUT } from '../bridges/healthkit-source';

type Stored = { seq: number; feed: string; sample: QuantitySample | CategorySample | WorkoutSample };
type Change = { seq: number; sample?: Stored['sample']; deleted?: string };

const feedOf = (s: Stored['sample']): string => ('quantityType' in s ? s.quantityType : 'categoryType' in s ? s.categoryType : HK_WORKOUT);

export class MemoryHealthKit {
  private seq = 0;
  private readonly samples = new Map<string, Stored>();
  /** Per type, changes in sequence order (a sample replaced or deleted later is skipped when read). */
  private readonly log = new Map<string, Change[]>();
  private readonly listeners = new Set<() => void>();
  /** How many anchored queries were made (the benchmark counts them). */
  queries = 0;
  authorized: string[] = [];

  private append(feed: string, change: Change) {
    const list = this.log.get(feed) ?? [];
    list.push(change);
    this.log.set(feed, list);
  }

  add(...samples: Stored['sample'][]): void {
    for (const sample of samples) {
      const stored = { seq: ++this.seq, feed: feedOf(sample), sample };
      this.samples.set(sample.uuid, stored);
      this.append(stored.feed, { seq: stored.seq, sample });
    }
    this.notify();
  }

  delete(uuid: string): void {
    const s = this.samples.get(uuid);
    if (!s) return;
    this.samples.delete(uuid);
    this.append(s.feed, { seq: ++this.seq, deleted: uuid });
    this.notify();
  }

  /** Every sample the store holds now. */
  all(): Stored['sample'][] {
    return [...this.samples.values()].map((s) => s.sample);
  }

  /** Background delivery: HealthKit wakes the app when a type it observes changes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify() {
    for (const l of this.listeners) l();
  }

  private changes(feed: string, anchor: string | undefined, limit: number, from?: Date): { picked: Change[]; newAnchor: string } {
    this.queries++;
    const after = anchor ? Number(anchor) : 0;
    const list = this.log.get(feed) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].seq <= after) lo = mid + 1;
      else hi = mid;
    }
    const picked: Change[] = [];
    let i = lo;
    for (; i < list.length && (limit <= 0 || picked.length < limit); i++) {
      const c = list[i];
      if (c.deleted) {
        // A first query (no anchor) reports no deletions.
        if (anchor) picked.push(c);
        continue;
      }
      const live = this.samples.get(c.sample!.uuid);
      if (live?.seq !== c.seq || (from && c.sample!.startDate < from)) continue;
      picked.push(c);
    }
    const newAnchor = String(i < list.length ? list[i - 1].seq : this.seq);
    return { picked, newAnchor };
  }

  /** The bridge's functions, as the SDK calls them. */
  readonly bridge: HealthKitBridge = {
    requestAuthorization: async (request) => {
      this.authorized = [...(request.toRead ?? [])].map(String);
      return true;
    },
    queryQuantitySamplesWithAnchor: (async (identifier: string, options: { anchor?: string; limit: number; filter?: { date?: { startDate?: Date } } }) => {
      const { picked, newAnchor } = this.changes(identifier, options.anchor, options.limit, options.filter?.date?.startDate);
      return { samples: picked.flatMap((c) => (c.sample ? [c.sample] : [])), deletedSamples: picked.flatMap((c) => (c.deleted ? [{ uuid: c.deleted }] : [])), newAnchor };
    }) as unknown as HealthKitBridge['queryQuantitySamplesWithAnchor'],
    queryCategorySamplesWithAnchor: (async (identifier: string, options: { anchor?: string; limit: number; filter?: { date?: { startDate?: Date } } }) => {
      const { picked, newAnchor } = this.changes(identifier, options.anchor, options.limit, options.filter?.date?.startDate);
      return { samples: picked.flatMap((c) => (c.sample ? [c.sample] : [])), deletedSamples: picked.flatMap((c) => (c.deleted ? [{ uuid: c.deleted }] : [])), newAnchor };
    }) as unknown as HealthKitBridge['queryCategorySamplesWithAnchor'],
    queryQuantitySamples: (async (identifier: string, options: { limit: number; unit?: string; filter?: { date?: { startDate?: Date; endDate?: Date } } }) => {
      this.queries++;
      const from = options.filter?.date?.startDate?.getTime() ?? -Infinity;
      const to = options.filter?.date?.endDate?.getTime() ?? Infinity;
      const found = [...this.samples.values()]
        .filter((s) => s.feed === identifier && s.sample.startDate.getTime() >= from && s.sample.startDate.getTime() <= to)
        .map((s) => s.sample)
        .sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
      return options.limit > 0 ? found.slice(0, options.limit) : found;
    }) as unknown as HealthKitBridge['queryQuantitySamples'],
    queryWorkoutSamplesWithAnchor: (async (options: { anchor?: string; limit: number; filter?: { date?: { startDate?: Date } } }) => {
      const { picked, newAnchor } = this.changes(HK_WORKOUT, options.anchor, options.limit, options.filter?.date?.startDate);
      return { workouts: picked.flatMap((c) => (c.sample ? [c.sample] : [])), deletedSamples: picked.flatMap((c) => (c.deleted ? [{ uuid: c.deleted }] : [])), newAnchor };
    }) as unknown as HealthKitBridge['queryWorkoutSamplesWithAnchor'],
  };
}

