/**
 * The provider contract suite (../provider-contract.suite.ts) for Withings, against its simulator, on
 * the embedded runtime. One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { WithingsSimulator } from './simulator/withings-simulator';

jest.setTimeout(240_000);

describe('Withings (embedded)', () => providerContract(() => new WithingsSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'getmeas', path: 'measurement' } }));
