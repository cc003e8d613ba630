/**
 * The provider contract suite on the embedded runtime, for every provider against its simulator (Oura, Withings, Dexcom, Polar, WHOOP, Strava).
 */
import { providerContract } from './provider-contract.suite';
import { OuraSimulator } from './simulators/oura/oura-simulator';
import { WithingsSimulator } from './simulators/withings/withings-simulator';
import { DexcomSimulator } from './simulators/dexcom/dexcom-simulator';
import { PolarSimulator } from './simulators/polar/polar-simulator';
import { WhoopSimulator } from './simulators/whoop/whoop-simulator';
import { StravaSimulator } from './simulators/strava/strava-simulator';

jest.setTimeout(240_000);

describe('Oura (embedded)', () => providerContract(() => new OuraSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' } }));
describe('Withings (embedded)', () => providerContract(() => new WithingsSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'getmeas', path: 'measurement' } }));
describe('Dexcom (embedded)', () => providerContract(() => new DexcomSimulator(), { mode: 'embedded', revokes: false, live: 'poll', liveResource: { name: 'egvs', path: 'cgm' } }));
describe('Polar (embedded)', () => providerContract(() => new PolarSimulator(), { mode: 'embedded', revokes: true, refreshes: false, live: 'notify', liveResource: { name: 'exercises', path: 'workout' } }));
describe('WHOOP (embedded)', () => providerContract(() => new WhoopSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' } }));
describe('Strava (embedded)', () => providerContract(() => new StravaSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'activities', path: 'workout' } }));
