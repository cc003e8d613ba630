/**
 * The provider contract suite (../provider-contract.suite.ts) for WHOOP, against its simulator, on
 * the distributed runtime (real Kafka, FerretDB, Redis). One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { WhoopSimulator } from './simulator/whoop-simulator';

jest.setTimeout(300_000);

describe('WHOOP (distributed)', () => providerContract(() => new WhoopSimulator(), { mode: 'distributed', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' }, oldObjects: { late: 'workout', edited: ['sleep', 'recovery'] }, signedRetries: true }));
