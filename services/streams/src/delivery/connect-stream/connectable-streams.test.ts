import type { StreamDoc } from '../../streams/stream';
import { ConnectableStreams } from './connectable-streams';

describe('ConnectableStreams', () => {
  const doc = { _id: 's1', customer_id: 'c1' } as StreamDoc;

  it('asks the store once per stream within the lifetime, never caches a miss, and forgets on delete', async () => {
    const asked: string[] = [];
    let stored: StreamDoc | null = null;
    const streams = new ConnectableStreams({ findOfCustomer: async (c, id) => (asked.push(`${c}/${id}`), stored) }, 60_000);
    expect(await streams.find('c1', 's1')).toBeNull();
    stored = doc;
    expect(await streams.find('c1', 's1')).toBe(doc);
    expect(await streams.find('c1', 's1')).toBe(doc);
    expect(asked).toEqual(['c1/s1', 'c1/s1']);
    streams.forget('c1', 's1');
    stored = null;
    expect(await streams.find('c1', 's1')).toBeNull();
    // Another customer's id is its own key: never answered from this customer's entry.
    stored = doc;
    await streams.find('c1', 's1');
    stored = null;
    expect(await streams.find('c2', 's1')).toBeNull();
  });

  it('asks again once the entry is older than its lifetime, and keeps at most maxEntries', async () => {
    let calls = 0;
    const streams = new ConnectableStreams({ findOfCustomer: async (c, id) => (calls++, { ...doc, _id: id, customer_id: c }) }, 0, 2);
    await streams.find('c1', 'a');
    await streams.find('c1', 'a');
    expect(calls).toBe(2);
    const bounded = new ConnectableStreams({ findOfCustomer: async (c, id) => (calls++, { ...doc, _id: id, customer_id: c }) }, 60_000, 2);
    calls = 0;
    for (const id of ['a', 'b', 'c', 'a']) await bounded.find('c1', id);
    expect(calls).toBe(4); // 'a' was dropped when 'c' came in
  });
});
