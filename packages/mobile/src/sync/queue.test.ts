import type { Upload } from '../records';
import { memoryStorage } from '../testing/memory-storage';
import { MAX_BATCH, UploadQueue } from './queue';

const weight = (i: number): Upload => ({
  type: 'measurement',
  source: { type: 'apple_health' },
  log_id: `w-${i}`,
  start_time: '2026-11-01T07:00:00Z',
  end_time: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T07:00:00Z`,
  metrics: [{ type: 'body_weight', unit: 'kg', value: 70 }],
});
const uploads = (from: number, n: number) => Array.from({ length: n }, (_, i) => weight(from + i));

it('cuts segments so the oldest make whole requests, and sends their JSON as stored', async () => {
  const storage = memoryStorage();
  const queue = new UploadQueue(storage);
  await queue.push(uploads(0, 600));
  await queue.push(uploads(600, 600));
  expect([...storage.map.keys()].sort()).toEqual(['wellstream:queue:000000000000:600', 'wellstream:queue:000000000001:400', 'wellstream:queue:000000000002:200']);
  expect(await queue.length()).toBe(1200);
  const first = (await queue.next())!;
  expect(first.count).toBe(MAX_BATCH);
  expect(JSON.parse(first.json)).toEqual(uploads(0, 1000));
  expect(first.headers.reduce((n, h) => n + h.resources.measurement!.count, 0)).toBe(1000);
  await queue.ack(first);
  const rest = (await queue.next())!;
  expect(JSON.parse(rest.json)).toEqual(uploads(1000, 200));
  expect(rest.headers[0].resources.measurement).toEqual({ count: 200, lastEnd: '2026-11-28T07:00:00Z' });
});

it('reads a segment written before counts and headers (an app upgraded with a queue)', async () => {
  const storage = memoryStorage();
  await storage.setItem('wellstream:queue:000000000007', JSON.stringify(uploads(0, 3)));
  const queue = new UploadQueue(storage);
  expect(await queue.length()).toBe(3);
  await queue.push(uploads(3, 2));
  const batch = (await queue.next())!;
  expect(batch.keys).toEqual(['wellstream:queue:000000000007', 'wellstream:queue:000000000008:2']);
  expect(JSON.parse(batch.json)).toEqual(uploads(0, 5));
});

it('replace() keeps what is left of a batch under its first key, written before the batch is removed', async () => {
  const storage = memoryStorage();
  const queue = new UploadQueue(storage);
  await queue.push(uploads(0, 5));
  const batch = (await queue.next())!;
  const writes: string[] = [];
  const setItem = storage.setItem;
  storage.setItem = async (k, v) => {
    writes.push(`set ${k} (${[...storage.map.keys()].length} keys)`);
    return setItem(k, v);
  };
  await queue.replace(batch, uploads(0, 5).filter((_, i) => i !== 2));
  expect(writes).toEqual(['set wellstream:queue:000000000000:4 (1 keys)']);
  expect([...storage.map.keys()]).toEqual(['wellstream:queue:000000000000:4']);
  expect(JSON.parse((await queue.next())!.json).map((u: Upload) => u.log_id)).toEqual(['w-0', 'w-1', 'w-3', 'w-4']);
});
