/**
 * The provider contract suite (../provider-contract.suite.ts) for Polar, against its simulator, on
 * the distributed runtime (real Kafka, FerretDB, Redis). One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { PolarSimulator } from './simulator/polar-simulator';

jest.setTimeout(300_000);

describe('Polar (distributed)', () => providerContract(() => new PolarSimulator({ shortLimit: 1_000_000 }), { mode: 'distributed', revokes: true, refreshes: false, live: 'notify', liveResource: { name: 'exercises', path: 'workout' } }));
