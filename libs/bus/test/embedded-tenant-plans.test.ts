/**
 * Every read of a tenant's slice on the embedded log is served by an index leading with
 * (topic, tenant): its cost follows that tenant's messages, never the whole topic's. SQLite picks
 * plans itself, so this asks it (EXPLAIN QUERY PLAN) for each statement.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedLogStorage } from '../src/embedded-log-storage';
import { TENANT_READS } from '../src/embedded-log-statements';

it('serves every tenant-slice read by a tenant index', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-plans-'));
  const file = path.join(dir, 'events.db');
  const storage = new EmbeddedLogStorage(file);
  storage.ensureTopic({ name: 'events', partitions: 4, compacted: true, retentionMs: 1e9, tenants: { partitions: 4, field: 'customer_id' } });
  const db = new Database(file, { readonly: true });
  try {
    for (const [name, sql] of Object.entries(TENANT_READS)) {
      const args = (sql.match(/\?/g) ?? []).map(() => 1);
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | ');
      expect({ name, plan }).toEqual({ name, plan: expect.stringMatching(/USING (COVERING )?INDEX messages_tenant_\w+ \(topic=\? AND tenant=\?/) });
      expect({ name, plan }).not.toEqual({ name, plan: expect.stringMatching(/SCAN messages(?! USING)/) });
    }
  } finally {
    db.close();
    storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
