/**
 * The provider contract suite on the distributed runtime (real Kafka, FerretDB, Redis), for
 * every provider against its simulator (Oura, Withings, Dexcom, Polar, WHOOP, Strava).
 */
import { providerContract } from './provider-contract.suite';
import { OuraSimulator } from './simulators/oura/oura-simulator';
import { WithingsSimulator } from './simulators/withings/withings-simulator';
import { DexcomSimulator } from './simulators/dexcom/dexcom-simulator';
import { PolarSimulator } from './simulators/polar/polar-simulator';
import { WhoopSimulator } from './simulators/whoop/whoop-simulator';
import { StravaSimulator } from './simulators/strava/strava-simulator';

jest.setTimeout(300_000);

describe('Oura (distributed)', () => providerContract(() => new OuraSimulator(), { mode: 'distributed', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' } }));
describe('Withings (distributed)', () => providerContract(() => new WithingsSimulator(), { mode: 'distributed', revokes: true, live: 'notify', liveResource: { name: 'getmeas', path: 'measurement' } }));
describe('Dexcom (distributed)', () => providerContract(() => new DexcomSimulator(), { mode: 'distributed', revokes: false, live: 'poll', liveResource: { name: 'egvs', path: 'cgm' } }));
describe('Polar (distributed)', () => providerContract(() => new PolarSimulator(), { mode: 'distributed', revokes: true, refreshes: false, live: 'notify', liveResource: { name: 'exercises', path: 'workout' } }));
describe('WHOOP (distributed)', () => providerContract(() => new WhoopSimulator(), { mode: 'distributed', revokes: true, live: 'notify', liveResource: { name: 'workout', path: 'workout' } }));
describe('Strava (distributed)', () => providerContract(() => new StravaSimulator(), { mode: 'distributed', revokes: true, live: 'notify', liveResource: { name: 'activities', path: 'workout' } }));
