/**
 * The DocumentStore contract: one suite, run against SQLite (component project) and MongoDB/FerretDB
 * (integration project) with the same assertions. Excluded from the build.
 */
import { randomBytes } from 'node:crypto';
import type { Collection, Doc, DocumentStore, Filter, SortSpec } from './document-store.port';
import type { TestableDocumentStore } from './document-store.testing';
import { DuplicateKeyError } from './document-store.port';

export interface DocumentStoreHarness {
  /** A fresh store whose name says it is a test target. */
  open(): Promise<TestableDocumentStore>;
  /** A store whose name does NOT say "test" (dropForTests must refuse it); omitted if the adapter cannot make one. */
  openNonTest?(): Promise<TestableDocumentStore>;
  cleanup?(): Promise<void>;
}

interface Item extends Doc {
  name: string;
  n?: number | null;
  tag?: string;
  flag?: boolean;
  nested?: { city?: string; zip?: number };
  list?: number[];
  at?: string;
}

const rnd = () => randomBytes(4).toString('hex');
const ids = (docs: Doc[]) => docs.map((d) => d._id);

const FIXTURE: Item[] = [
  { _id: 'a', name: 'Anna', n: 1, tag: 'x', flag: true, nested: { city: 'Oslo', zip: 100 }, list: [1, 2] },
  { _id: 'b', name: 'Ben', n: 2, tag: 'y', flag: false, nested: { city: 'Rome', zip: 200 } },
  { _id: 'c', name: 'Cleo', n: 3, tag: 'x', nested: { city: 'Oslo' } },
  { _id: 'd', name: 'Dan', n: null, tag: 'z' },
  { _id: 'e', name: 'Eve', n: 5 },
];

export function documentStoreContract(label: string, makeHarness: () => Promise<DocumentStoreHarness>): void {
  describe(`DocumentStore contract: ${label}`, () => {
    let h: DocumentStoreHarness;
    let store: DocumentStore;
    let items: Collection<Item>;

    beforeAll(async () => {
      h = await makeHarness();
      store = await h.open();
    });
    beforeEach(async () => {
      items = await store.collection<Item>({ name: `items_${rnd()}`, indexes: [{ fields: { tag: 1, n: -1 } }] });
      for (const d of FIXTURE) await items.insertOne(d);
    });
    afterAll(async () => {
      await store?.close();
      await h?.cleanup?.();
    });

    it('inserts, reads back exactly what was written, and deletes', async () => {
      expect(await items.findOne({ _id: 'a' })).toEqual(FIXTURE[0]);
      expect(await items.findOne({ _id: 'zzz' })).toBeNull();
      expect(await items.count({})).toBe(5);
      expect(await items.deleteMany({ tag: 'x' })).toBe(2);
      expect(ids(await items.find({}, { sort: { _id: 1 } }))).toEqual(['b', 'd', 'e']);
      expect(await items.deleteMany({ tag: 'nope' })).toBe(0);
    });

    it('rejects a second document with the same _id with DuplicateKeyError', async () => {
      await expect(items.insertOne({ _id: 'a', name: 'again' })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await items.findOne({ _id: 'a' }))?.name).toBe('Anna');
    });

    const cases: [string, Filter, string[]][] = [
      ['equality', { tag: 'x' }, ['a', 'c']],
      ['equality on a nested path', { 'nested.city': 'Oslo' }, ['a', 'c']],
      ['equality with null (null or missing)', { n: null }, ['d']],
      ['$eq', { name: { $eq: 'Ben' } }, ['b']],
      ['$ne (missing fields match)', { tag: { $ne: 'x' } }, ['b', 'd', 'e']],
      ['$ne null', { tag: { $ne: null } }, ['a', 'b', 'c', 'd']],
      ['$gt', { n: { $gt: 2 } }, ['c', 'e']],
      ['$gte', { n: { $gte: 2 } }, ['b', 'c', 'e']],
      ['$lt', { n: { $lt: 3 } }, ['a', 'b']],
      ['$lte', { n: { $lte: 3 } }, ['a', 'b', 'c']],
      ['range on one field', { n: { $gt: 1, $lt: 5 } }, ['b', 'c']],
      ['$in', { tag: { $in: ['y', 'z'] } }, ['b', 'd']],
      ['$in with null (matches missing)', { tag: { $in: ['y', null] } }, ['b', 'e']],
      ['$nin (missing fields match)', { tag: { $nin: ['x', 'y'] } }, ['d', 'e']],
      ['$nin with null', { tag: { $nin: ['x', null] } }, ['b', 'd']],
      ['$exists true', { flag: { $exists: true } }, ['a', 'b']],
      ['$exists false', { flag: { $exists: false } }, ['c', 'd', 'e']],
      ['$exists on a nested path', { 'nested.zip': { $exists: true } }, ['a', 'b']],
      ['boolean equality', { flag: false }, ['b']],
      ['_id operators', { _id: { $in: ['a', 'e', 'q'] } }, ['a', 'e']],
      ['several fields (all must hold)', { tag: 'x', 'nested.city': 'Oslo', n: { $gte: 3 } }, ['c']],
      ['string comparison', { name: { $gte: 'C', $lt: 'E' } }, ['c', 'd']],
    ];
    it.each(cases)('filters: %s', async (_label, filter, expected) => {
      expect(ids(await items.find(filter, { sort: { _id: 1 } }))).toEqual(expected);
      expect(await items.count(filter)).toBe(expected.length);
    });

    it('sorts, skips and limits', async () => {
      const withN = { n: { $gte: 1 } };
      expect(ids(await items.find(withN, { sort: { n: -1 } }))).toEqual(['e', 'c', 'b', 'a']);
      expect(ids(await items.find(withN, { sort: { n: 1 }, skip: 1, limit: 2 }))).toEqual(['b', 'c']);
      expect(ids(await items.find(withN, { sort: { n: 1 }, skip: 3 }))).toEqual(['e']);
      expect(ids(await items.find(withN, { sort: { n: 1 }, limit: 0 }))).toEqual([]);
      expect(ids(await items.find({ tag: { $exists: true } }, { sort: { tag: 1, name: -1 } }))).toEqual(['c', 'a', 'b', 'd']);
      expect(ids(await items.find({}, { sort: { 'nested.zip': -1, _id: 1 }, limit: 2 }))).toEqual(['b', 'a']);
      expect((await items.findOne({ tag: 'x' }, { sort: { n: -1 } }))?._id).toBe('c');
    });

    it('findPages reads the whole result in sort order, pages of at most pageSize, ties broken by _id, none twice', async () => {
      const many = await store.collection<Item & { owner: string }>({ name: `pages_${rnd()}`, partitionKey: 'owner', indexes: [{ fields: { owner: 1, n: 1 } }] });
      // 23 documents over 5 values of n: pages must continue inside a run of equal keys.
      const docs = Array.from({ length: 23 }, (_, i) => ({ _id: `d${String((i * 7) % 23).padStart(2, '0')}`, name: 'x', n: i % 5, owner: 'o' }));
      await many.bulkUpsert(docs);
      await many.insertOne({ _id: 'other-owner', name: 'x', n: 0, owner: 'z' });
      const read = async (sort: SortSpec, pageSize: number, filter: Filter = { owner: 'o' }) => {
        const pages: string[][] = [];
        for await (const page of many.findPages(filter, { sort, pageSize })) pages.push(ids(page));
        return pages;
      };
      const byKey = (dir: 1 | -1) => [...docs].sort((a, b) => dir * (a.n - b.n || a._id.localeCompare(b._id))).map((d) => d._id);
      const up = await read({ n: 1 }, 4);
      expect(up.map((p) => p.length)).toEqual([4, 4, 4, 4, 4, 3]);
      expect(up.flat()).toEqual(byKey(1));
      expect((await read({ n: -1, _id: -1 }, 5)).flat()).toEqual(byKey(-1));
      expect(await read({ n: 1 }, 100)).toEqual([byKey(1)]);
      expect((await read({ n: 1 }, 3, { owner: 'o', n: { $gte: 3 } })).flat()).toEqual(byKey(1).filter((id) => docs.find((d) => d._id === id)!.n >= 3));
      expect(await read({ n: 1 }, 3, { owner: 'nobody' })).toEqual([]);
      // Without the partition key: every partition, merged in order.
      expect((await read({ n: 1 }, 10, {})).flat()).toEqual([...docs, { _id: 'other-owner', n: 0 }].sort((a, b) => a.n - b.n || a._id.localeCompare(b._id)).map((d) => d._id));
      await expect(read({ n: 1, name: -1 }, 3)).rejects.toThrow(/same direction/);
    });

    it('enforces unique indexes with DuplicateKeyError, on insert and on update', async () => {
      const users = await store.collection<{ _id: string; email: string; org: string }>({
        name: `users_${rnd()}`,
        indexes: [{ fields: { org: 1, email: 1 }, unique: true }],
      });
      await users.insertOne({ _id: 'u1', email: 'a@x', org: 'o1' });
      await users.insertOne({ _id: 'u2', email: 'a@x', org: 'o2' });
      await expect(users.insertOne({ _id: 'u3', email: 'a@x', org: 'o1' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(users.findOneAndUpdate({ _id: 'u2' }, { $set: { org: 'o1' } })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(users.bulkUpsert([{ _id: 'u9', email: 'a@x', org: 'o2' }])).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await users.count({})).toBe(2);
    });

    it('findOneAndUpdate: $set/$unset/$inc on nested paths, returns the document after, null when nothing matches', async () => {
      const after = await items.findOneAndUpdate({ _id: 'a' }, { $set: { 'nested.city': 'Bergen', name: 'Anna B' }, $unset: { tag: '' }, $inc: { n: 10, 'nested.zip': 1 } });
      expect(after).toEqual({ _id: 'a', name: 'Anna B', n: 11, flag: true, nested: { city: 'Bergen', zip: 101 }, list: [1, 2] });
      expect(await items.findOne({ _id: 'a' })).toEqual(after);
      expect(await items.findOneAndUpdate({ _id: 'nope' }, { $set: { name: 'x' } })).toBeNull();
      expect(await items.count({ _id: 'nope' })).toBe(0);
      const first = await items.findOneAndUpdate({ tag: 'x' }, { $set: { picked: true } as Record<string, unknown> }, { sort: { n: -1 } });
      expect(first?._id).toBe('c');
    });

    it('findOneAndUpdate upsert: inserts from the filter, $set and $setOnInsert; later calls only update', async () => {
      const created = await items.findOneAndUpdate({ _id: 'new', tag: 'q' }, { $set: { name: 'New' }, $setOnInsert: { n: 0 } }, { upsert: true });
      expect(created).toEqual({ _id: 'new', tag: 'q', name: 'New', n: 0 });
      const updated = await items.findOneAndUpdate({ _id: 'new' }, { $set: { name: 'Newer' }, $setOnInsert: { n: 99 }, $inc: { hits: 1 } as Record<string, number> }, { upsert: true });
      expect(updated).toEqual({ _id: 'new', tag: 'q', name: 'Newer', n: 0, hits: 1 });
    });

    it('findOneAndUpdate upsert with an operator filter applies $setOnInsert (arrays too) only on insert', async () => {
      const created = await items.findOneAndUpdate(
        { _id: 'ver', at: { $lte: '2024-01-02' } },
        { $set: { at: '2024-01-01', sources: [] }, $setOnInsert: { seen: [] as string[], n: 1 } },
        { upsert: true },
      );
      expect(created).toEqual({ _id: 'ver', at: '2024-01-01', sources: [], seen: [], n: 1 });
      const again = await items.findOneAndUpdate(
        { _id: 'ver', at: { $lte: '2024-01-03' } },
        { $set: { at: '2024-01-03' }, $setOnInsert: { seen: ['x'], n: 2 } },
        { upsert: true },
      );
      expect(again).toEqual({ _id: 'ver', at: '2024-01-03', sources: [], seen: [], n: 1 });
    });

    it('findOneAndUpdate upsert is atomic under 20 concurrent calls', async () => {
      const counters = await store.collection<{ _id: string; n: number; created: string }>({ name: `counters_${rnd()}` });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => counters.findOneAndUpdate({ _id: 'c1' }, { $inc: { n: 1 }, $setOnInsert: { created: 'once' } }, { upsert: true })),
      );
      expect(results.map((r) => r?.n).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await counters.find({})).toEqual([{ _id: 'c1', n: 20, created: 'once' }]);
    });

    it('updateMany updates every match and returns how many matched', async () => {
      expect(await items.updateMany({ tag: 'x' }, { $set: { tag: 'w' }, $inc: { n: 1 } })).toBe(2);
      expect(ids(await items.find({ tag: 'w' }, { sort: { _id: 1 } }))).toEqual(['a', 'c']);
      expect((await items.findOne({ _id: 'c' }))?.n).toBe(4);
      expect(await items.updateMany({ tag: 'none' }, { $set: { tag: 'v' } })).toBe(0);
    });

    it('bulkUpsert replaces whole documents by _id and inserts missing ones', async () => {
      await items.bulkUpsert([
        { _id: 'a', name: 'Replaced' },
        { _id: 'f', name: 'Fresh', n: 6, nested: { city: 'Lima' } },
      ]);
      expect(await items.findOne({ _id: 'a' })).toEqual({ _id: 'a', name: 'Replaced' });
      expect(await items.findOne({ _id: 'f' })).toEqual({ _id: 'f', name: 'Fresh', n: 6, nested: { city: 'Lima' } });
      expect(await items.count({})).toBe(6);
      await items.bulkUpsert([]);
    });

    it('a partitioned collection answers every query the same, with or without its partition key', async () => {
      const parts = await store.collection<Item & { owner: string }>({
        name: `parts_${rnd()}`,
        partitionKey: 'owner',
        indexes: [{ fields: { owner: 1, n: 1 } }],
      });
      const docs = FIXTURE.map((d, i) => ({ ...d, _id: `${i % 2 ? 'p' : 'q'}-${d._id}`, owner: i % 2 ? 'p' : 'q' }));
      await parts.bulkUpsert(docs.slice(0, 3));
      for (const d of docs.slice(3)) await parts.insertOne(d);
      await expect(parts.insertOne(docs[0])).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(ids(await parts.find({ owner: 'q' }, { sort: { n: -1 } }))).toEqual(['q-e', 'q-c', 'q-a']);
      expect(ids(await parts.find({ owner: 'p', _id: { $in: ['p-b', 'q-a', 'p-d'] } }, { sort: { _id: 1 } }))).toEqual(['p-b', 'p-d']);
      expect(ids(await parts.find({ tag: 'x' }, { sort: { _id: 1 } }))).toEqual(['q-a', 'q-c']);
      expect(ids(await parts.find({}, { sort: { n: 1, _id: 1 }, skip: 1, limit: 2 }))).toEqual(['q-a', 'p-b']);
      expect(await parts.count({ owner: 'q', n: { $gte: 3 } })).toBe(2);
      expect((await parts.findOneAndUpdate({ owner: 'p', _id: 'p-b' }, { $inc: { n: 1 } }))?.n).toBe(3);
      expect((await parts.findOneAndUpdate({ _id: 'p-new', owner: 'p' }, { $set: { name: 'New' } }, { upsert: true }))?.owner).toBe('p');
      expect(await parts.updateMany({ owner: 'q', _id: { $in: ['q-a', 'q-c'] } }, { $set: { tag: 'w' } })).toBe(2);
      expect(await parts.count({ tag: 'w' })).toBe(2);
      expect(await parts.deleteMany({ owner: 'q', _id: { $in: ['q-a', 'p-b'] } })).toBe(1);
      expect(await parts.deleteMany({ name: 'New' })).toBe(1);
      expect(ids(await parts.find({}, { sort: { _id: 1 } }))).toEqual(['p-b', 'p-d', 'q-c', 'q-e']);
    });

    it('filters that pin _id with more conditions, and upserts that miss them, behave like MongoDB', async () => {
      expect(ids(await items.find({ _id: { $in: ['a', 'b', 'c'] }, tag: 'x' }, { sort: { n: -1 } }))).toEqual(['c', 'a']);
      expect(await items.count({ _id: 'a', tag: 'y' })).toBe(0);
      expect(await items.updateMany({ _id: { $in: ['a', 'b'] }, tag: 'x' }, { $set: { seen: true } as Record<string, unknown> })).toBe(1);
      expect(await items.findOneAndUpdate({ _id: 'b', tag: 'x' }, { $set: { name: 'no' } })).toBeNull();
      await expect(items.findOneAndUpdate({ _id: 'b', tag: 'x' }, { $set: { name: 'no' } }, { upsert: true })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await items.deleteMany({ _id: { $in: ['a', 'b'] }, flag: true })).toBe(1);
      expect(ids(await items.find({ _id: { $in: ['a', 'b'] } }))).toEqual(['b']);
    });

    it('rejects field paths that are not plain names', async () => {
      await expect(items.find({ 'a;drop': 1 } as Filter)).rejects.toThrow(/invalid field path/);
      await expect(items.find({ $where: 'x' } as Filter)).rejects.toThrow(/invalid field path/);
    });

    it('dropForTests empties a test store and refuses a store whose name does not say test', async () => {
      const other = await h.open();
      const c = await other.collection<Item>({ name: 'things', indexes: [{ fields: { name: 1 }, unique: true }] });
      await c.insertOne({ _id: '1', name: 'x' });
      await other.dropForTests();
      expect(await c.count({})).toBe(0);
      await c.insertOne({ _id: '2', name: 'y' });
      await expect(c.insertOne({ _id: '3', name: 'y' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await other.close();
      if (h.openNonTest) {
        const prod = await h.openNonTest();
        await expect(prod.dropForTests()).rejects.toThrow(/refusing/);
        await prod.close();
      }
      expect(await store.healthy()).toBe(true);
    });
  });
}
