/**
 * The DocumentStore contract on the embedded (SQLite) adapter.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDocumentStore } from '../src/adapters';
import { documentStoreContract } from '../src/document-store.contract';

documentStoreContract('sqlite', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-store-test-'));
  let n = 0;
  return {
    open: async () => new SqliteDocumentStore(path.join(dir, `store-${n++}.db`)),
    openNonTest: async () => new SqliteDocumentStore(':memory:'),
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});
