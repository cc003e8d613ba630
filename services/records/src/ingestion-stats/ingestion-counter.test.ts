/**
 * The ingestion counter on the embedded store: ingestion only adds in memory; a flush writes one
 * `$inc` per (organization, day) touched and adds to what is stored; a failed write is kept for
 * the next flush, not lost and not doubled; stopping writes out what is left.
 */
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { IngestionCountRepository } from './ingestion-count.repository';
import { IngestionCounter } from './ingestion-counter';

describe('IngestionCounter', () => {
  let store: SqliteDocumentStore;
  let repo: IngestionCountRepository;
  const errors: unknown[] = [];
  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    repo = await IngestionCountRepository.open(store);
    errors.length = 0;
  });
  afterEach(() => store.close());

  const counts = async (org: string, dates: string[]) =>
    Object.fromEntries((await repo.days(org, dates)).map((d) => [d.date, { created: d.created, updated: d.updated, deleted: d.deleted }]));

  it('adds in memory, then writes one sum per organization and day, adding to what is stored', async () => {
    const counter = new IngestionCounter(repo, { flushMs: 60_000, onError: (e) => errors.push(e) });
    const writes = jest.spyOn(repo, 'add');
    counter.add('org-a', '2026-01-01', { created: 2, updated: 0, deleted: 0 });
    counter.add('org-a', '2026-01-01', { created: 1, updated: 1, deleted: 1 });
    counter.add('org-a', '2026-01-02', { created: 0, updated: 3, deleted: 0 });
    counter.add('org-b', '2026-01-01', { created: 5, updated: 0, deleted: 0 });
    expect(writes).not.toHaveBeenCalled();
    await counter.flush();
    expect(writes).toHaveBeenCalledTimes(3);
    counter.add('org-a', '2026-01-01', { created: 10, updated: 0, deleted: 0 });
    await counter.flush();
    await counter.flush(); // nothing pending: no write
    expect(writes).toHaveBeenCalledTimes(4);
    expect(await counts('org-a', ['2026-01-01', '2026-01-02', '2026-01-03'])).toEqual({
      '2026-01-01': { created: 13, updated: 1, deleted: 1 },
      '2026-01-02': { created: 0, updated: 3, deleted: 0 },
    });
    expect(await counts('org-b', ['2026-01-01'])).toEqual({ '2026-01-01': { created: 5, updated: 0, deleted: 0 } });
  });

  it('keeps a failed write for the next flush, with what arrived meanwhile', async () => {
    const counter = new IngestionCounter(repo, { flushMs: 60_000, onError: (e) => errors.push(e) });
    const real = repo.add.bind(repo);
    jest.spyOn(repo, 'add').mockImplementationOnce(() => Promise.reject(new Error('store down')));
    counter.add('org-a', '2026-01-01', { created: 2, updated: 0, deleted: 0 });
    await expect(counter.flush()).rejects.toThrow('store down');
    counter.add('org-a', '2026-01-01', { created: 1, updated: 0, deleted: 0 });
    (repo.add as jest.Mock).mockImplementation(real);
    await counter.flush();
    expect(await counts('org-a', ['2026-01-01'])).toEqual({ '2026-01-01': { created: 3, updated: 0, deleted: 0 } });
  });

  it('writes on its timer, reports failures to onError, and writes what is left when stopped', async () => {
    const counter = new IngestionCounter(repo, { flushMs: 100, onError: (e) => errors.push(e) });
    counter.start();
    counter.add('org-t', '2026-01-01', { created: 1, updated: 0, deleted: 0 });
    const deadline = Date.now() + 5_000;
    while (Object.keys(await counts('org-t', ['2026-01-01'])).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await counts('org-t', ['2026-01-01'])).toEqual({ '2026-01-01': { created: 1, updated: 0, deleted: 0 } });
    counter.add('org-t', '2026-01-01', { created: 0, updated: 0, deleted: 4 });
    await counter.stop();
    expect(await counts('org-t', ['2026-01-01'])).toEqual({ '2026-01-01': { created: 1, updated: 0, deleted: 4 } });
    expect(errors).toEqual([]);
  });
});
