/**
 * The provider contract suite (../provider-contract.suite.ts) and Strava's own cases
 * (../strava-contract.suite.ts) for Strava, against its simulator, on
 * the embedded runtime. One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../../../test/provider-contract.suite';
import { StravaSimulator } from './simulator/strava-simulator';
import { stravaContract } from './strava-contract.suite';

jest.setTimeout(240_000);

describe('Strava (embedded)', () => providerContract(() => new StravaSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'activities', path: 'workout' } }));

describe('Strava as its documents say (embedded)', () => stravaContract('embedded'));
