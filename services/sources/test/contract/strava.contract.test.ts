/**
 * The provider contract suite (../provider-contract.suite.ts) for Strava, against its simulator, on
 * the embedded runtime. One file a provider, so jest runs providers side by side.
 */
import { providerContract } from '../provider-contract.suite';
import { StravaSimulator } from '../simulators/strava/strava-simulator';

jest.setTimeout(240_000);

describe('Strava (embedded)', () => providerContract(() => new StravaSimulator(), { mode: 'embedded', revokes: true, live: 'notify', liveResource: { name: 'activities', path: 'workout' } }));
