/**
 * The provider simulator suite (services/sources/test/provider-simulator.suite.ts) for Dexcom, against its
 * simulator, on this run's runtime (embedded, or real Kafka, FerretDB and Redis). One file a provider,
 * so jest runs providers side by side.
 */
import { byRuntime, testRuntime } from '@wellstream/testing';
import { providerAgainstSimulator } from '../../../test/provider-simulator.suite';
import { DexcomSimulator } from './simulator/dexcom-simulator';

jest.setTimeout(byRuntime({ embedded: 240_000, distributed: 300_000 }));

describe(`Dexcom (${testRuntime()})`, () => providerAgainstSimulator(() => new DexcomSimulator(), { mode: testRuntime(), revokes: false, live: 'poll', liveResource: { name: 'egvs', path: 'cgm' } }));
