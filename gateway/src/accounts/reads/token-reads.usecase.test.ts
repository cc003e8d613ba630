/**
 * Token reads over the embedded store: a token stored before display prefixes were kept reads
 * with `prefix: null`; usage comes from the reader in one call per page, in the page's order;
 * remaining never goes below 0.
 */
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { AccountRepository } from '../account.repository';
import { getToken, listTokens } from './token-reads.usecase';

const HOUR = 3_600_000;

it('reads old tokens without a prefix, and usage for the whole page in one call', async () => {
  const store = new SqliteDocumentStore(':memory:');
  try {
    const repo = await AccountRepository.open(store);
    await repo.customers.insertOne({ _id: 'cus_1', name: 'C', created_at: '2026-01-01T00:00:00.000Z' });
    // As issue-token stored them before prefixes were kept.
    await repo.tokens.insertOne({ _id: 'a'.repeat(64), customer_id: 'cus_1', rate_limit_per_hour: 5, created_at: '2026-01-01T00:00:00.000Z', revoked_at: null });
    await repo.tokens.insertOne({ _id: 'b'.repeat(64), customer_id: 'cus_1', rate_limit_per_hour: 5, created_at: '2026-01-02T00:00:00.000Z', revoked_at: null, prefix: 'wst_abcdefgh' });
    const asked: string[][] = [];
    const start = Date.UTC(2026, 0, 3, 10);
    const readUsage = async (hashes: string[]) => {
      asked.push(hashes);
      return hashes.map((h) => ({ windowStart: start, current: h.startsWith('a') ? 9 : 1, previous: 2 }));
    };
    const page = await listTokens({ repo, readUsage }, 'cus_1', { offset: 0, limit: 25, sort: '-created_at' });
    expect(asked).toEqual([['b'.repeat(64), 'a'.repeat(64)]]);
    expect(page.data.map((t) => [t.prefix, t.usage.current_hour.remaining])).toEqual([
      ['wst_abcdefgh', 4],
      [null, 0],
    ]);
    expect(page.data[1].usage).toEqual({
      current_hour: { start: '2026-01-03T10:00:00.000Z', requests: 9, remaining: 0 },
      previous_hour: { start: new Date(start - HOUR).toISOString(), requests: 2 },
    });
    await expect(getToken({ repo, readUsage }, 'cus_2', 'a'.repeat(64))).rejects.toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  } finally {
    await store.close();
  }
});
