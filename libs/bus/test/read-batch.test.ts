/**
 * Lookups shared by the messages read together, and the embedded log handing each read its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@wellstream/logging';
import { EmbeddedEventLog } from '../src/adapters';
import type { LogMessage } from '../src/event-log.port';
import { SharedLookups } from '../src/read-batch';
import type { ReadBatch } from '../src/read-batch';

jest.setTimeout(30_000);

describe('SharedLookups', () => {
  it('asks once per key and gives every caller the same answer', async () => {
    const lookups = new SharedLookups();
    let asked = 0;
    const lookup = async () => ({ n: ++asked });
    const answers = await Promise.all([lookups.shared('a', lookup), lookups.shared('a', lookup), lookups.shared('b', lookup)]);
    expect(answers).toEqual([{ n: 1 }, { n: 1 }, { n: 2 }]);
    expect(asked).toBe(2);
  });

  it('asks again after a failed lookup, so a retried message does not get the same failure', async () => {
    const lookups = new SharedLookups();
    await expect(lookups.shared('a', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    await expect(lookups.shared('a', async () => 'back')).resolves.toBe('back');
  });
});

describe('the embedded log', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-read-batch-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the messages of one read one batch, and a later read a new one', async () => {
    const log = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger: createLogger('bus-test') });
    await log.ensureTopic({ name: 't', partitions: 1 });
    await log.publish('t', Array.from({ length: 10 }, (_, i) => ({ key: 'k', value: `first ${i}` })));
    const seen: { message: LogMessage; batch: ReadBatch }[] = [];
    let handled = () => {};
    const sub = await log.consume({
      topic: 't',
      groupId: 'g',
      fromBeginning: true,
      handle: async (message, batch) => {
        seen.push({ message, batch });
        if (seen.length === 10 || seen.length === 11) handled();
      },
    });
    await new Promise<void>((resolve) => (handled = resolve));
    await log.publish('t', [{ key: 'k', value: 'later' }]);
    await new Promise<void>((resolve) => (handled = resolve));
    await sub.stop();
    await log.close();
    expect(seen.map((s) => s.message.value)).toEqual([...Array.from({ length: 10 }, (_, i) => `first ${i}`), 'later']);
    expect(new Set(seen.slice(0, 10).map((s) => s.batch)).size).toBe(1);
    expect(seen[10].batch).not.toBe(seen[0].batch);
  });
});
