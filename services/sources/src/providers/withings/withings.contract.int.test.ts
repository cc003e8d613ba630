/**
 * The provider contract suite (../provider-contract.suite.ts) for Withings, against its simulator, on
 * the distributed runtime (real Kafka, FerretDB, Redis). One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { WithingsSimulator } from './simulator/withings-simulator';

jest.setTimeout(300_000);

describe('Withings (distributed)', () => providerContract(() => new WithingsSimulator(), { mode: 'distributed', revokes: true, live: 'notify', liveResource: { name: 'getmeas', path: 'measurement' } }));
