/**
 * Batch formation over a real store (in-memory SQLite; the MongoDB API on the real servers): due rules, size limit, order, and the
 * crash between storing a batch and removing its pending items.
 */
import { NOBODY_GONE } from '@wellstream/runtime';
import { WithheldItemRepository } from '../../withheld/withheld-item.repository';
import { createLogger } from '@wellstream/logging';
import type { TestableDocumentStore } from '@wellstream/store';
import { MongoDocumentStore, SqliteDocumentStore } from '@wellstream/store/adapters';
import { byRuntime, realServers, uniqueTestName } from '@wellstream/testing';
import { TargetRepository } from '../../targets/target.repository';
import { BatchRepository } from '../batch.repository';
import { nextArrivalOrder, PendingItemRepository } from '../pending-item.repository';
import { PushOrganizationRepository } from '../push-organization.repository';
import { formDueBatches, FormBatchesDeps, whileNotForming } from './form-batches.usecase';

// The same cases on each store adapter: SQLite embedded, MongoDB in the integration project.
function formBatchesSuite(label: string, makeStore: () => TestableDocumentStore): void {
describe(`formDueBatches (${label})`, () => {
  let store: TestableDocumentStore;
  let deps: FormBatchesDeps;
  let now: number;
  const ORG = 'org-1';

  beforeEach(async () => {
    store = makeStore();
    now = 1_700_000_000_000;
    deps = {
      targets: await TargetRepository.open(store),
      pendingItems: await PendingItemRepository.open(store),
      batches: await BatchRepository.open(store),
      organizations: await PushOrganizationRepository.open(store),
      gone: NOBODY_GONE,
      withheld: await WithheldItemRepository.open(store),
      settings: { flushMs: 5000, batchSize: 3 },
      logger: createLogger('test'),
      clock: { now: () => new Date(now) },
    };
    await deps.targets.put({ _id: ORG, organization_id: ORG, customer_id: 'c', url: 'http://127.0.0.1:1/', secret: null, resource_filter: [] }, new Date(now).toISOString());
  });
  afterEach(async () => {
    await store.dropForTests().catch(() => undefined);
    await store.close();
  });

  const add = (n: number, org = ORG) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        deps.pendingItems.add({ _id: `evt-${org}-${now}-${i}`, organization_id: org, enqueued_ms: now, order: nextArrivalOrder(now), record: { id: `r${i}` } }),
      ),
    );
  const all = () => deps.batches.list({ organizationId: ORG, offset: 0, limit: 100 });

  it('waits the flush time, then forms one batch in arrival order', async () => {
    await add(2);
    expect(await formDueBatches(deps)).toBe(0);
    now += 5000;
    expect(await formDueBatches(deps)).toBe(1);
    const { batches } = await all();
    expect(batches[0]).toMatchObject({ state: 'PENDING', next_attempt_ms: now, attempt_count: 0, items: [{ id: 'r0' }, { id: 'r1' }] });
    expect(await deps.pendingItems.oldest(10)).toEqual([]);
  });

  it('forms full batches at once and leaves the rest gathering', async () => {
    await add(7);
    expect(await formDueBatches(deps)).toBe(2);
    expect((await deps.pendingItems.oldest(10)).length).toBe(1);
    const { batches } = await all();
    expect(batches.map((b) => b.seq).sort()).toEqual([1, 2]);
  });

  it('after a crash between storing a batch and removing its items, forms no duplicate', async () => {
    await add(3);
    expect(await formDueBatches(deps)).toBe(1);
    const [batch] = (await all()).batches;
    // The crash: the items are still pending, as if the removal never happened.
    for (const [i, id] of batch.item_ids.entries()) {
      await deps.pendingItems.add({ _id: id, organization_id: ORG, enqueued_ms: now, order: i, record: batch.items[i] });
    }
    expect(await formDueBatches(deps)).toBe(0);
    expect((await all()).total).toBe(1);
    expect(await deps.pendingItems.oldest(10)).toEqual([]);
  });

  it('drops pending items of an organization whose target was removed', async () => {
    await add(3);
    await deps.targets.delete(ORG);
    expect(await formDueBatches(deps)).toBe(0);
    expect(await deps.pendingItems.oldest(10)).toEqual([]);
  });

  it('lets only one former work on an organization at a time', async () => {
    await add(3);
    expect(await deps.organizations.leaseFormation(ORG, now, 30_000)).toBe(true);
    expect(await formDueBatches(deps)).toBe(0);
    await deps.organizations.releaseFormation(ORG);
    expect(await formDueBatches(deps)).toBe(1);
  });

  it("takes a gone user's queued items out rather than batching them: a deleted user's kept aside for the export, an erased user's dropped", async () => {
    const share = { has: (u: string) => u === 'u-deleted' || u === 'u-erased', erased: (u: string) => u === 'u-erased' };
    const d: FormBatchesDeps = { ...deps, gone: { forOrganization: async () => share } };
    await Promise.all(
      ['u-deleted', 'u-kept', 'u-erased', 'u-kept'].map((user, i) =>
        deps.pendingItems.add({ _id: `evt-e-${i}`, organization_id: ORG, enqueued_ms: now, order: nextArrivalOrder(now), record: { id: `r${i}`, user: { user_id: user } } }),
      ),
    );
    now += 5000;
    // Batches of 3 read r0–r2 (r1 kept), then r3.
    expect(await formDueBatches(d)).toBe(2);
    const { batches } = await all();
    expect(batches.map((b) => b.items.map((r) => (r as { id: string }).id)).sort()).toEqual([['r1'], ['r3']]);
    expect(await deps.pendingItems.oldest(10)).toEqual([]);
    const aside = async (user: string) => {
      const out = [];
      for await (const page of deps.withheld.pagesOfUser(ORG, user)) out.push(...page);
      return out;
    };
    expect(await aside('u-deleted')).toEqual([expect.objectContaining({ _id: 'queue:evt-e-0', batch_id: null, record: { id: 'r0', user: { user_id: 'u-deleted' } } })]);
    expect(await aside('u-erased')).toEqual([]);
  });

  it('runs an erasure rewrite only while no pass forms the organization batches', async () => {
    expect(await deps.organizations.leaseFormation(ORG, now, 30_000)).toBe(true);
    const steps: string[] = [];
    const erasure = whileNotForming(deps, ORG, async () => void steps.push('rewrite'));
    await new Promise((r) => setTimeout(r, 250));
    steps.push('pass ends');
    await deps.organizations.releaseFormation(ORG);
    await erasure;
    expect(steps).toEqual(['pass ends', 'rewrite']);
    // And the erasure held the lease meanwhile: released again after.
    expect(await deps.organizations.leaseFormation(ORG, now, 30_000)).toBe(true);
  });
});
}

// Embedded on SQLite, distributed on the MongoDB API (FerretDB).
const stores = {
  embedded: () => formBatchesSuite('sqlite', () => new SqliteDocumentStore(':memory:')),
  distributed: () => formBatchesSuite('mongodb', () => new MongoDocumentStore({ url: realServers().mongoUrl, dbName: uniqueTestName('notifform'), logger: createLogger('test') })),
};
byRuntime(stores)();
