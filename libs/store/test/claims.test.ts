/**
 * Leases by insert (src/claims.ts) on SQLite: held until given back or until its time, given back
 * only by its holder's own take, and old generations pruned while the lease goes on.
 */
import { Leases } from '../src/claims';
import { SqliteDocumentStore } from '../src/adapters';

describe('leases taken by insert', () => {
  let store: SqliteDocumentStore;
  let leases: Leases;
  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    leases = await Leases.open(store, 'leases');
  });
  afterEach(() => store.close());
  const docs = async () => (await store.collection<{ _id: string; key: string }>(Leases.spec('leases'))).find({ key: 'k' });

  it('is held until given back or until its time runs out; a lapsed holder gives back nothing', async () => {
    expect(await leases.take('k', 'a', 0, 100)).toBe(true);
    expect(await leases.take('k', 'b', 50, 100)).toBe(false);
    expect(await leases.take('other', 'b', 50, 100)).toBe(true);
    await leases.release('k', 'a');
    expect(await leases.take('k', 'b', 60, 100)).toBe(true);
    // b's time runs out; c takes it, and b's late release leaves c's lease alone.
    expect(await leases.take('k', 'c', 161, 100)).toBe(true);
    await leases.release('k', 'b');
    expect(await leases.take('k', 'a', 170, 100)).toBe(false);
  });

  it('keeps a bounded number of documents per key however long it goes on', async () => {
    for (let i = 0; i < 200; i++) {
      expect(await leases.take('k', 'a', i, 100)).toBe(true);
      await leases.release('k', 'a');
    }
    expect((await docs()).length).toBeLessThanOrEqual(34);
  });
});
