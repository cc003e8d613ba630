import type { CollectionSpec } from './document-store.port';
import { servingIndex, QueryShape } from './index-match';

const spec: CollectionSpec = {
  name: 'records',
  indexes: [{ fields: { user_id: 1, type: 1, start_time: 1, _id: 1 } }, { fields: { state: 1, due_ms: 1, seq: 1 } }, { fields: { at: -1 } }],
};
const served = (shape: QueryShape) => {
  const r = servingIndex(shape, spec);
  return 'index' in r ? Object.keys(r.index.fields).join(',') : null;
};

describe('servingIndex: equality, then sort, then range, as a prefix of a declared index', () => {
  it('pinned _id is served by the primary key whatever else the filter holds', () => {
    expect(served({ filter: { _id: { $in: ['a', 'b'] }, other: 1 } })).toBe('_id');
    expect(served({ filter: { _id: 'a' } })).toBe('_id');
  });

  it('equality on the leading keys, in any order, then a range and a sort on the next key', () => {
    expect(served({ filter: { type: 'sleep', user_id: 'u' } })).toBe('user_id,type,start_time,_id');
    expect(served({ filter: { user_id: 'u', type: { $in: ['a', 'b'] }, start_time: { $gte: 'x' } }, sort: { start_time: 1 } })).toBe('user_id,type,start_time,_id');
    // A sort read backwards is served too.
    expect(served({ filter: { user_id: 'u', type: 't' }, sort: { start_time: -1, _id: -1 } })).toBe('user_id,type,start_time,_id');
    expect(served({ filter: { state: 'due', due_ms: { $lte: 5 } }, sort: { due_ms: 1, seq: 1 }, limit: 10 })).toBe('state,due_ms,seq');
  });

  it('conditions no index narrows are checked on what the index found', () => {
    expect(served({ filter: { user_id: 'u', deleted_at: { $exists: false } } })).toBe('user_id,type,start_time,_id');
  });

  it('a range on a later key bounds an index whose leading key is the sort (a due queue)', () => {
    const queue: CollectionSpec = { name: 'jobs', indexes: [{ fields: { priority: 1, due_at: 1 } }] };
    expect('index' in servingIndex({ filter: { due_at: { $lte: 'now' }, lease: { $lt: 'now' } }, sort: { priority: 1, due_at: 1 }, limit: 10 }, queue)).toBe(true);
  });

  it('an empty filter with a limit is served by an index that starts with the sort', () => {
    expect(served({ filter: {}, sort: { at: -1 }, limit: 50 })).toBe('at');
    expect(served({ filter: {}, sort: { at: -1 } })).toBeNull();
  });

  it('conditions outside the index are checked on what the index found', () => {
    expect(served({ filter: { user_id: 'u', type: 't', local_date: { $gte: '2026-01-01' }, deleted_at: null }, sort: { start_time: 1, _id: 1 } })).toBe('user_id,type,start_time,_id');
  });

  it('is not served when its first key is open, or the sort does not follow the pinned keys', () => {
    expect(served({ filter: { type: 'sleep' } })).toBeNull();
    expect(served({ filter: { user_id: 'u' }, sort: { start_time: 1 } })).toBeNull();
    expect(served({ filter: { state: 'due' }, sort: { seq: 1 } })).toBeNull();
    expect(served({ filter: { user_id: 'u', type: 't' }, sort: { start_time: 1, _id: -1 } })).toBeNull();
    expect(served({ filter: { kind: 'x' }, sort: { at: -1 }, limit: 5 })).toBeNull();
    const why = servingIndex({ filter: { type: 'sleep' } }, spec);
    expect('reason' in why && why.reason).toMatch(/\(user_id, type, start_time, _id\): its first key is not constrained/);
  });
});
