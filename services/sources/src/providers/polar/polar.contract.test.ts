/**
 * The provider contract suite (../provider-contract.suite.ts) for Polar, against its simulator, on
 * the embedded runtime. One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { PolarSimulator } from './simulator/polar-simulator';

jest.setTimeout(240_000);

describe('Polar (embedded)', () => providerContract(() => new PolarSimulator({ shortLimit: 1_000_000 }), { mode: 'embedded', revokes: true, refreshes: false, live: 'notify', liveResource: { name: 'exercises', path: 'workout' } }));
