/**
 * The provider contract suite (../provider-contract.suite.ts) for Oura, against its simulator, on
 * the distributed runtime (real Kafka, FerretDB, Redis). One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { OuraSimulator } from './simulator/oura-simulator';

jest.setTimeout(300_000);

describe('Oura (distributed)', () => providerContract(() => new OuraSimulator(), { mode: 'distributed', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' } }));
