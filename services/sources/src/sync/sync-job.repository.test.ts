/**
 * The live job's objects when notifications keep coming while it runs (Garmin's backfill sends a
 * ping a day and summary type): a finished run leaves only what arrived meanwhile, so a burst of n
 * notifications costs n fetches, not one more round of everything for each arrival; an object
 * named again while it was being fetched is fetched again (its newer version).
 */
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { SyncJobRepository } from './sync-job.repository';
import { jobId } from './sync-job';

const now = new Date('2026-11-27T12:00:00Z');

async function running(jobs: SyncJobRepository, ids: string[]) {
  await jobs.schedule('c1', 'live', now, undefined, { objects: { pulls: ids } });
  const [due] = await jobs.due(now, 10);
  const leased = await jobs.lease(due, now, 60_000);
  if (!leased) throw new Error('not leased');
  return leased;
}

describe('sync jobs: live objects arriving while the job runs', () => {
  it('keeps only the objects named while it ran once the run finishes', async () => {
    const jobs = await SyncJobRepository.open(new SqliteDocumentStore(':memory:'));
    const run = await running(jobs, ['a', 'b']);
    await jobs.schedule('c1', 'live', now, undefined, { objects: { pulls: ['c'] } });
    await jobs.finish(run);
    const [next] = await jobs.due(now, 10);
    expect(next._id).toBe(jobId('c1', 'live'));
    expect(next.objects).toEqual({ pulls: ['c'] });
  });

  it('fetches again an object named again while it ran', async () => {
    const jobs = await SyncJobRepository.open(new SqliteDocumentStore(':memory:'));
    const run = await running(jobs, ['a', 'b']);
    await jobs.schedule('c1', 'live', now, undefined, { objects: { pulls: ['b'] } });
    await jobs.finish(run);
    expect((await jobs.due(now, 10))[0].objects).toEqual({ pulls: ['b'] });
  });

  it('keeps everything for the retry when the run failed', async () => {
    const jobs = await SyncJobRepository.open(new SqliteDocumentStore(':memory:'));
    const run = await running(jobs, ['a', 'b']);
    await jobs.schedule('c1', 'live', now, undefined, { objects: { pulls: ['c'] } });
    await jobs.again(run, now, true);
    expect((await jobs.due(now, 10))[0].objects).toEqual({ pulls: ['a', 'b', 'c'] });
  });

  it('removes a job that nothing changed while it ran', async () => {
    const jobs = await SyncJobRepository.open(new SqliteDocumentStore(':memory:'));
    await jobs.finish(await running(jobs, ['a']));
    expect(await jobs.due(now, 10)).toEqual([]);
  });

  it('runs a permission or access check that came in while the run failed at once, not after the failure\'s wait', async () => {
    for (const check of [{ permissions_check: true }, { access_check: { reason: 'withdrawn' } }]) {
      const jobs = await SyncJobRepository.open(new SqliteDocumentStore(':memory:'));
      const run = await running(jobs, ['a']);
      await jobs.schedule('c1', 'live', now, undefined, check);
      await jobs.again(run, new Date(now.getTime() + 600_000), false);
      expect((await jobs.due(now, 10))[0]).toMatchObject({ ...check, objects: { pulls: ['a'] } });
    }
    // A check the failed run had already carried waits like the rest.
    const jobs = await SyncJobRepository.open(new SqliteDocumentStore(':memory:'));
    await jobs.schedule('c1', 'live', now, undefined, { permissions_check: true });
    const [due] = await jobs.due(now, 10);
    await jobs.again((await jobs.lease(due, now, 60_000))!, new Date(now.getTime() + 600_000), false);
    expect(await jobs.due(now, 10)).toEqual([]);
  });
});
