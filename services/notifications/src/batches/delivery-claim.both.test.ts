/**
 * The delivery claim of a batch between two replicas: two repositories over two connections to one
 * database (one store in the embedded runtime) claim the same due batch at the same moment, round
 * after round; exactly one gets each try, whether the last try was recorded (a retry due at once)
 * or its claimer died (its lease ran out). A claimer that died between taking the claim and
 * marking the batch holds it up only for a lease time.
 */
import { replicaStores } from '@wellstream/testing';
import { Batch, newBatch } from './batch';
import { BatchRepository } from './batch.repository';

jest.setTimeout(120_000);

const ROUNDS = 50;
const LEASE_MS = 45_000;
const START = 1_700_000_000_000;
const replicas = replicaStores('deliveryclaim');

const dueBatch = (now: number): Batch => newBatch({ id: 'org-1.batch-1', organizationId: 'org-1', seq: 1, items: [{ id: 'event-1' }], itemIds: ['event-1'], now });

describe(`delivery claim between two replicas (${replicas.label})`, () => {
  afterEach(() => replicas.close());

  it(`gives each try of a batch to exactly one of two racing replicas, ${ROUNDS} rounds in a row`, async () => {
    const stores = replicas.open();
    const batches = await Promise.all(stores.map((s) => BatchRepository.open(s)));
    let now = START;
    await batches[0].insert(dueBatch(now));
    const winners: number[] = [];
    const held: boolean[] = [];
    let recorded = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const claimed = await Promise.all(batches.map((r, i) => r.claim('org-1.batch-1', now, LEASE_MS, `replica-${i}`)));
      winners.push(claimed.filter(Boolean).length);
      const winner = claimed.findIndex(Boolean);
      const stored = await batches[0].byId('org-1.batch-1');
      held.push(stored?.lease_owner === `replica-${winner}` && stored.lease_until_ms === now + LEASE_MS);
      if (winner >= 0 && round % 2 === 0) {
        // The try failed and was recorded: the next one is due at once.
        await batches[winner].recordAttempt('org-1.batch-1', { transmitted_at: new Date(now).toISOString(), response: { code: 500, body: '' } }, false, now, () => now);
        recorded++;
      } else now += LEASE_MS + 1; // The claimer died mid-try: its lease runs out.
    }
    expect(winners).toEqual(Array(ROUNDS).fill(1));
    expect(held).toEqual(Array(ROUNDS).fill(true));
    expect((await batches[0].byId('org-1.batch-1'))?.attempt_count).toBe(recorded);
    // Each claim's documents went once the batch was marked: nothing piles up.
    expect(await (await stores[0].collection({ name: 'notification_delivery_claims' })).count({})).toBe(0);
  });

  it('gives no try of a batch that the other replica already sent and recorded', async () => {
    const batches = await Promise.all(replicas.open().map((s) => BatchRepository.open(s)));
    await batches[0].insert(dueBatch(START));
    expect(await batches[0].claim('org-1.batch-1', START, LEASE_MS, 'replica-0')).not.toBeNull();
    await batches[0].recordAttempt('org-1.batch-1', { transmitted_at: new Date(START).toISOString(), response: { code: 200, body: '' } }, true, START, () => null);
    // The other replica listed the batch as due before the success was recorded.
    expect(await batches[1].claim('org-1.batch-1', START, LEASE_MS, 'replica-1')).toBeNull();
    expect(await batches[1].claim('org-1.batch-1', START + LEASE_MS + 1, LEASE_MS, 'replica-1')).toBeNull();
  });

  it('lets another replica claim a try once a claimer that died before marking the batch has had its time', async () => {
    const [store] = replicas.open();
    const batches = await BatchRepository.open(store);
    await batches.insert(dueBatch(START));
    const claims = await store.collection<{ _id: string; owner: string; until_ms: number }>({ name: 'notification_delivery_claims' });
    await claims.insertOne({ _id: 'org-1.batch-1#0.0', owner: 'replica-gone', until_ms: START + LEASE_MS });
    expect(await batches.claim('org-1.batch-1', START + 1, LEASE_MS, 'replica-1')).toBeNull();
    const later = START + LEASE_MS + 1;
    expect((await batches.claim('org-1.batch-1', later, LEASE_MS, 'replica-1'))?.lease_owner).toBe('replica-1');
    // Its claim documents went with it: nothing piles up.
    expect(await claims.count({})).toBe(0);
  });
});
