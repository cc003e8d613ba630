/**
 * The DocumentStore contract on the embedded (SQLite) adapter.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDocumentStore } from '../src/adapters';
import type { CollectionSpec } from '../src/document-store.port';
import { filterToSql } from '../src/document-store.sqlite';
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

describe('sqlite query plans', () => {
  it('a filter that pins _id is served by the primary key even when another field has an index', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-store-test-'));
    const store = new SqliteDocumentStore(path.join(dir, 'plans.db'));
    await store.collection({ name: 'recs', indexes: [{ fields: { user_id: 1, type: 1 } }] });
    await store.close();
    const db = new Database(path.join(dir, 'plans.db'));
    const plan = (filter: Parameters<typeof filterToSql>[0]) => {
      const { where, params } = filterToSql(filter);
      return (db.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "c_recs" WHERE ${where}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
    };
    expect(plan({ user_id: 'u', _id: { $in: ['a', 'b'] } })).toMatch(/sqlite_autoindex_c_recs_1 \(_id=\?\)/);
    expect(plan({ user_id: 'u', _id: 'a' })).toMatch(/sqlite_autoindex_c_recs_1 \(_id=\?\)/);
    // Without _id, the secondary index still serves the other fields.
    expect(plan({ user_id: 'u', type: 't' })).toMatch(/ix_recs_user_id_a_type_a/);
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('sqlite indexes', () => {
  it('creates every declared index at start, idempotently: a restart, and a later opener declaring one more', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-store-test-'));
    const file = path.join(dir, 'indexes.db');
    const spec: CollectionSpec = { name: 'jobs', indexes: [{ fields: { user_id: 1, due_at: 1 } }, { fields: { token: 1 }, unique: true }] };
    for (let start = 0; start < 2; start++) {
      const store = new SqliteDocumentStore(file);
      await store.collection(spec);
      if (start === 1) await store.collection({ ...spec, indexes: [...(spec.indexes ?? []), { fields: { due_at: -1 } }] });
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'c_jobs' AND name LIKE 'ix_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
    expect(names).toEqual(['ix_jobs_due_at_d', 'ix_jobs_token_a', 'ix_jobs_user_id_a_due_at_a']);
  });
});
