/**
 * The log's values deflated on a worker thread: the same bytes as in place, in order, and still
 * every value when the thread is gone.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BackgroundDeflate, BATCH_FOR_THREAD } from '../src/background-deflate';
import { packValue, unpackValue } from '../src/log-values';

jest.setTimeout(30_000);

const values = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ tag, i, metrics: [{ type: 'body_weight', value: 70 + i / 10, unit: 'kg' }], note: 'é✓'.repeat(i % 5) }));

describe('BackgroundDeflate', () => {
  let deflate: BackgroundDeflate;
  beforeEach(() => (deflate = new BackgroundDeflate()));
  afterEach(() => deflate.terminate());

  it('gives, on the thread, the very bytes deflating in place gives', async () => {
    const batch = values(100, 'a');
    const packed = await deflate.pack(batch);
    expect(deflate['worker']).toBeDefined();
    expect(packed.map((b) => b.toString('base64'))).toEqual(batch.map((v) => packValue(v).toString('base64')));
    expect(packed.map(unpackValue)).toEqual(batch);
  });

  it('answers concurrent batches each with its own values, in order', async () => {
    const batches = Array.from({ length: 20 }, (_, k) => values(BATCH_FOR_THREAD + k, `b${k}`));
    const order: number[] = [];
    const answers = await Promise.all(batches.map((b, k) => deflate.pack(b).then((p) => (order.push(k), p))));
    expect(answers.map((p) => p.map(unpackValue))).toEqual(batches);
    expect(order).toEqual(batches.map((_, k) => k));
  });

  it('deflates small batches in place, without starting the thread', async () => {
    const small = values(BATCH_FOR_THREAD - 1, 'c');
    expect((await deflate.pack(small)).map(unpackValue)).toEqual(small);
    expect(deflate['worker']).toBeUndefined();
  });

  it('deflates in place what a lost thread still owed, and everything after', async () => {
    const owed = Array.from({ length: 5 }, (_, k) => values(50, `d${k}`));
    const answers = owed.map((b) => deflate.pack(b));
    await deflate['worker']!.terminate();
    expect((await Promise.all(answers)).map((p) => p.map(unpackValue))).toEqual(owed);
    expect(deflate.onThread).toBe(false);
    const later = values(50, 'e');
    expect((await deflate.pack(later)).map(unpackValue)).toEqual(later);
    expect(deflate['worker']).toBeUndefined();
  });

  it('never keeps a process alive, nor ends it while an answer is due', () => {
    // The built package, as a program loads it (npm test builds before it runs the tests).
    const dist = path.resolve(__dirname, '../dist/background-deflate');
    const program = `const { backgroundDeflate } = require(${JSON.stringify(dist)});
      backgroundDeflate.pack(Array.from({ length: 50 }, (_, i) => 'value ' + i)).then((p) => console.log(p.length));`;
    const child = spawnSync(process.execPath, ['-e', program], { timeout: 15_000, encoding: 'utf8' });
    // It printed (the thread kept it alive for the answer) and then exited (the idle thread did not).
    expect({ status: child.status, signal: child.signal, out: child.stdout.trim() }).toEqual({ status: 0, signal: null, out: '50' });
  });
});
