/**
 * Taking over an export whose lease lapsed, between two replicas: two repositories over two
 * connections to one database (one store in the embedded runtime) read the same job and take it
 * over at the same moment, round after round; exactly one gets it each time, and the job is then
 * that one's, as its next attempt. A taker that died before updating the job holds it up only
 * for a lease time.
 */
import { Leases } from '@wellstream/store';
import { replicaStores } from '@wellstream/testing';
import { ExportJob, ExportJobRepository } from './export-job.repository';

jest.setTimeout(120_000);

const ROUNDS = 50;
const LEASE_MS = 15_000;
const START = Date.parse('2026-01-01T00:00:02.000Z');
const replicas = replicaStores('fhirtakeover');

const lapsedJob = (): ExportJob => ({
  _id: 'job-1',
  organization_id: 'org-1',
  customer_id: 'cus-1',
  status: 'in-progress',
  request: 'https://example.test/v2/organizations/org-1/fhir/$export',
  since: null,
  types: ['Patient'],
  started_at: '2026-01-01T00:00:00.000Z',
  completed_at: null,
  attempt: 1,
  lease_owner: 'records_gone',
  lease_until: '2026-01-01T00:00:01.000Z',
  users_done: 0,
  users_total: 0,
  output: [],
});

describe(`export takeover between two replicas (${replicas.label})`, () => {
  afterEach(() => replicas.close());

  it(`gives a lapsed export to exactly one of two racing replicas, ${ROUNDS} rounds in a row`, async () => {
    const jobs = await Promise.all(replicas.open().map((s) => ExportJobRepository.open(s)));
    await jobs[0].insert(lapsedJob());
    let now = START;
    const winners: number[] = [];
    const held: boolean[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each replica read the job before either took it (their worker ticks run at once).
      const read = await Promise.all(jobs.map((r) => r.byId('job-1')));
      const taken = await Promise.all(jobs.map((r, i) => r.takeOver(read[i]!, `replica-${i}`, now, LEASE_MS)));
      winners.push(taken.filter(Boolean).length);
      const job = await jobs[0].byId('job-1');
      held.push(job?.attempt === round + 2 && job.lease_owner === `replica-${taken.findIndex(Boolean)}`);
      // The winner's run stopped at once (its process died): its lease lapses.
      now += LEASE_MS + 1;
    }
    expect(winners).toEqual(Array(ROUNDS).fill(1));
    expect(held).toEqual(Array(ROUNDS).fill(true));
  });

  it('lets another replica take over once a taker that died before updating the job has had its time', async () => {
    const stores = replicas.open();
    const repository = await ExportJobRepository.open(stores[0]);
    await repository.insert(lapsedJob());
    // The dead taker: its takeover lease taken, the job never updated.
    expect(await (await Leases.open(stores[1], 'fhir_export_takeovers')).take('job-1', 'records_dead', START, LEASE_MS)).toBe(true);
    const job = (await repository.byId('job-1'))!;
    expect(await repository.takeOver(job, 'records_alive', START + 1, LEASE_MS)).toBeNull();
    expect(await repository.takeOver(job, 'records_alive', START + LEASE_MS + 1, LEASE_MS)).toMatchObject({ attempt: 2, lease_owner: 'records_alive' });
  });
});
