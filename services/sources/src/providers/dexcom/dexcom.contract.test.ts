/**
 * The provider contract suite (../provider-contract.suite.ts) for Dexcom, against its simulator, on
 * the embedded runtime. One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { DexcomSimulator } from './simulator/dexcom-simulator';

jest.setTimeout(240_000);

describe('Dexcom (embedded)', () => providerContract(() => new DexcomSimulator(), { mode: 'embedded', revokes: false, live: 'poll', liveResource: { name: 'egvs', path: 'cgm' } }));
