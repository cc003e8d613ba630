/**
 * Retention of push batches: finished batches past 30 days go (their records with them); batches
 * still scheduled, and recent ones, stay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import type { Batch, BatchState } from './batch';
import { BatchRepository } from './batch.repository';

const DAY = 24 * 3600 * 1000;
const batch = (id: string, state: BatchState, listMs: number): Batch => ({
  _id: id,
  organization_id: 'org-r',
  seq: 1,
  state,
  items: [{ id: `record-of-${id}` }],
  item_ids: [id],
  created_at: new Date(listMs).toISOString(),
  created_ms: listMs,
  attempts: [],
  attempt_count: 1,
  first_attempt_ms: listMs,
  last_attempt_ms: listMs,
  list_ms: listMs,
  round: 1,
  round_attempts: 1,
  next_attempt_ms: state === 'PENDING' ? listMs + 1000 : null,
  lease_until_ms: 0,
  lease_owner: null,
});

it('purges finished batches first tried more than 30 days ago, and only those', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-retention-'));
  const store = new SqliteDocumentStore(path.join(dir, 'n.db'));
  try {
    const repo = await BatchRepository.open(store);
    const now = Date.now();
    for (const b of [batch('old-ok', 'SUCCESS', now - 31 * DAY), batch('old-failed', 'FAILURE', now - 40 * DAY), batch('old-pending', 'PENDING', now - 31 * DAY), batch('recent', 'SUCCESS', now - 2 * DAY)]) {
      await repo.insert(b);
    }
    expect(await repo.purgeFinishedBefore(now - 30 * DAY, 100)).toBe(2);
    for (const [id, kept] of [['old-ok', false], ['old-failed', false], ['old-pending', true], ['recent', true]] as const) {
      expect({ id, kept: (await repo.byId(id)) !== null }).toEqual({ id, kept });
    }
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
