/**
 * Taking gone users' items out of a batch: counted once when two withholdings race (a try and the
 * rewrite after a deletion), a deleted user's kept aside for the export and an erased user's not,
 * and a batch left empty removed.
 */
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { systemClock } from '@wellstream/clock';
import type { Batch } from '../batches/batch';
import { BatchRepository } from '../batches/batch.repository';
import { PendingItemRepository } from '../batches/pending-item.repository';
import { WithheldItemRepository } from './withheld-item.repository';
import { visibleBatch, withholdFromBatch } from './withhold-gone';

const record = (id: string, user: string) => ({ id, user: { user_id: user } });
const gone = (deleted: string[], erased: string[] = []) => ({ has: (u: string) => deleted.includes(u) || erased.includes(u), erased: (u: string) => erased.includes(u) });

function batch(items: ReturnType<typeof record>[]): Batch {
  return {
    _id: 'b-1',
    organization_id: 'org-1',
    seq: 1,
    state: 'PENDING',
    items,
    item_ids: items.map((i) => `evt-${i.id}`),
    created_at: new Date().toISOString(),
    created_ms: Date.now(),
    attempts: [],
    attempt_count: 0,
    first_attempt_ms: null,
    last_attempt_ms: null,
    list_ms: Date.now(),
    round: 1,
    round_attempts: 0,
    next_attempt_ms: Date.now(),
    lease_until_ms: 0,
    lease_owner: null,
  };
}

describe('withholding the items of gone users', () => {
  it('counts items once under a race, keeps a deleted user’s aside but not an erased one’s, and removes a batch left empty', async () => {
    const store = new SqliteDocumentStore(':memory:');
    const deps = { batches: await BatchRepository.open(store), pending: await PendingItemRepository.open(store), withheld: await WithheldItemRepository.open(store), clock: systemClock };
    const stored = batch([record('r1', 'u-deleted'), record('r2', 'u-kept'), record('r3', 'u-erased')]);
    await deps.batches.insert(stored);
    // What a customer sees before the batch is rewritten.
    expect(visibleBatch(stored, gone(['u-deleted']))).toMatchObject({ items: [record('r2', 'u-kept'), record('r3', 'u-erased')], withheld_items: 1 });

    const both = await Promise.all([withholdFromBatch(deps, stored, gone(['u-deleted'])), withholdFromBatch(deps, stored, gone(['u-deleted']))]);
    expect(both.map((b) => b?.withheld_items)).toEqual([1, 1]);
    const now = (await deps.batches.byId('b-1'))!;
    expect(now).toMatchObject({ items: [record('r2', 'u-kept'), record('r3', 'u-erased')], item_ids: ['evt-r2', 'evt-r3'], withheld_items: 1 });

    expect(await withholdFromBatch(deps, now, gone(['u-deleted', 'u-kept'], ['u-erased']))).toBeNull();
    expect(await deps.batches.byId('b-1')).toBeNull();
    const aside = async (user: string) => {
      const out = [];
      for await (const page of deps.withheld.pagesOfUser('org-1', user)) out.push(...page);
      return out.map((w) => [w._id, w.batch_id]);
    };
    expect(await aside('u-deleted')).toEqual([['b-1:evt-r1', 'b-1']]);
    expect(await aside('u-kept')).toEqual([['b-1:evt-r2', 'b-1']]);
    expect(await aside('u-erased')).toEqual([]);
    await store.close();
  });
});
