/**
 * The provider contract suite (../provider-contract.suite.ts) for Oura, against its simulator, on
 * the embedded runtime. One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { OuraSimulator } from './simulator/oura-simulator';

jest.setTimeout(240_000);

describe('Oura (embedded)', () => providerContract(() => new OuraSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' } }));
