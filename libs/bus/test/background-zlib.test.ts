/**
 * The log's values deflated and inflated on a worker thread: the same bytes and text as in place, in
 * order, and still every value when the thread is gone.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BackgroundZlib, PACK_ON_THREAD_FROM, UNPACK_ON_THREAD_FROM } from '../src/background-zlib';
import { packValue, unpackValue } from '../src/log-values';

jest.setTimeout(30_000);

const values = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ tag, i, metrics: [{ type: 'body_weight', value: 70 + i / 10, unit: 'kg' }], note: 'é✓'.repeat(i % 5) }));

describe('BackgroundZlib', () => {
  let zlib: BackgroundZlib;
  beforeEach(() => (zlib = new BackgroundZlib()));
  afterEach(() => zlib.terminate());

  it('gives, on the thread, the very bytes deflating in place gives', async () => {
    const batch = values(100, 'a');
    const packed = await zlib.pack(batch);
    expect(zlib['worker']).toBeDefined();
    expect(packed.map((b) => b.toString('base64'))).toEqual(batch.map((v) => packValue(v).toString('base64')));
    expect(packed.map(unpackValue)).toEqual(batch);
  });

  it('answers concurrent batches each with its own values, in order', async () => {
    const batches = Array.from({ length: 20 }, (_, k) => values(PACK_ON_THREAD_FROM + k, `b${k}`));
    const order: number[] = [];
    const answers = await Promise.all(batches.map((b, k) => zlib.pack(b).then((p) => (order.push(k), p))));
    expect(answers.map((p) => p.map(unpackValue))).toEqual(batches);
    expect(order).toEqual(batches.map((_, k) => k));
  });

  it('inflates on the thread to the very text, rows stored as text (older logs) kept where they are', async () => {
    const batch = values(60, 'f');
    const stored: (string | Buffer)[] = batch.map((v, i) => (i % 7 === 3 ? v : packValue(v)));
    expect(await zlib.unpack(stored)).toEqual(batch);
    expect(zlib['worker']).toBeDefined();
    // Answers to inflates and deflates asked together each find their caller.
    const [packed, texts] = await Promise.all([zlib.pack(batch), zlib.unpack(batch.map(packValue))]);
    expect(packed.map(unpackValue)).toEqual(batch);
    expect(texts).toEqual(batch);
  });

  it('deflates small batches in place, without starting the thread', async () => {
    const small = values(PACK_ON_THREAD_FROM - 1, 'c');
    expect((await zlib.pack(small)).map(unpackValue)).toEqual(small);
    const few = values(UNPACK_ON_THREAD_FROM - 1, 'c');
    expect(await zlib.unpack(few.map(packValue))).toEqual(few);
    expect(zlib['worker']).toBeUndefined();
  });

  it('works in place on what a lost thread still owed, and everything after', async () => {
    const owed = Array.from({ length: 5 }, (_, k) => values(50, `d${k}`));
    const answers = owed.map((b) => zlib.pack(b));
    const inflated = zlib.unpack(owed[0].map(packValue));
    await zlib['worker']!.terminate();
    expect((await Promise.all(answers)).map((p) => p.map(unpackValue))).toEqual(owed);
    expect(await inflated).toEqual(owed[0]);
    expect(zlib.onThread).toBe(false);
    const later = values(50, 'e');
    expect((await zlib.pack(later)).map(unpackValue)).toEqual(later);
    expect(zlib['worker']).toBeUndefined();
  });

  it('never keeps a process alive, nor ends it while an answer is due', () => {
    // The built package, as a program loads it (npm test builds before it runs the tests).
    const dist = path.resolve(__dirname, '../dist/background-zlib');
    const program = `const { backgroundZlib } = require(${JSON.stringify(dist)});
      backgroundZlib.pack(Array.from({ length: 50 }, (_, i) => 'value ' + i)).then((p) => console.log(p.length));`;
    const child = spawnSync(process.execPath, ['-e', program], { timeout: 15_000, encoding: 'utf8' });
    // It printed (the thread kept it alive for the answer) and then exited (the idle thread did not).
    expect({ status: child.status, signal: child.signal, out: child.stdout.trim() }).toEqual({ status: 0, signal: null, out: '50' });
  });
});
