/**
 * The formation lease between two replicas: two repositories over two connections to one database
 * (one store in the embedded runtime) ask for the same organization's lease at the same moment,
 * round after round; exactly one gets it each time, whether the last holder released it or its
 * time ran out.
 */
import { replicaStores } from '@wellstream/testing';
import { PushOrganizationRepository } from './push-organization.repository';

jest.setTimeout(120_000);

const ROUNDS = 50;
const LEASE_MS = 30_000;
const replicas = replicaStores('formlease');

describe(`formation lease between two replicas (${replicas.label})`, () => {
  afterEach(() => replicas.close());

  it(`gives an organization's lease to exactly one of two racing replicas, ${ROUNDS} rounds in a row`, async () => {
    const organizations = await Promise.all(replicas.open().map((s) => PushOrganizationRepository.open(s)));
    let now = 1_700_000_000_000;
    const winners: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const won = await Promise.all(organizations.map((r) => r.leaseFormation('org-race', now, LEASE_MS)));
      winners.push(won.filter(Boolean).length);
      const holder = organizations[won.indexOf(true)];
      // Half the rounds end by a release, half by the lease running out (a holder that died).
      if (holder && round % 2 === 0) await holder.releaseFormation('org-race');
      else now += LEASE_MS + 1;
    }
    expect(winners).toEqual(Array(ROUNDS).fill(1));
  });
});
