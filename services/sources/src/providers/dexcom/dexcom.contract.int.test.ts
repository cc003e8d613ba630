/**
 * The provider contract suite (../provider-contract.suite.ts) for Dexcom, against its simulator, on
 * the distributed runtime (real Kafka, FerretDB, Redis). One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { DexcomSimulator } from './simulator/dexcom-simulator';

jest.setTimeout(300_000);

describe('Dexcom (distributed)', () => providerContract(() => new DexcomSimulator(), { mode: 'distributed', revokes: false, live: 'poll', liveResource: { name: 'egvs', path: 'cgm' } }));
