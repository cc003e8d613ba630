/**
 * The provider contract suite (../provider-contract.suite.ts) for WHOOP, against its simulator, on
 * the embedded runtime. One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { WhoopSimulator } from './simulator/whoop-simulator';

jest.setTimeout(240_000);

describe('WHOOP (embedded)', () => providerContract(() => new WhoopSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' }, oldObjects: { late: 'workout', edited: ['sleep', 'recovery'] }, signedRetries: true }));
