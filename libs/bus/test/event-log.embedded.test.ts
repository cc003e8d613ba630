/**
 * The EventLog contract on the embedded (SQLite) adapter.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@wellstream/logging';
import { EmbeddedEventLog } from '../src/adapters';
import { eventLogContract } from '../src/event-log.contract';

eventLogContract('embedded', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bus-'));
  const logger = createLogger('bus-test');
  return {
    open: async () => new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger }),
    compact: async (log) => {
      await (log as EmbeddedEventLog).clean();
    },
    waitMs: 10_000,
    compactionWaitMs: 5_000,
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});
