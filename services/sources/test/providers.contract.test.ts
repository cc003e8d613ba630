/**
 * The provider contract suite on the embedded runtime, for every provider against its simulator.
 */
import { providerContract } from './provider-contract.suite';
import { OuraSimulator } from './simulators/oura/oura-simulator';
import { WithingsSimulator } from './simulators/withings/withings-simulator';
import { DexcomSimulator } from './simulators/dexcom/dexcom-simulator';

jest.setTimeout(240_000);

describe('Oura (embedded)', () => providerContract(() => new OuraSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' } }));
describe('Withings (embedded)', () => providerContract(() => new WithingsSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'getmeas', path: 'measurement' } }));
describe('Dexcom (embedded)', () => providerContract(() => new DexcomSimulator(), { mode: 'embedded', revokes: false, live: 'poll', liveResource: { name: 'egvs', path: 'cgm' } }));
