/**
 * The provider simulator suite (services/sources/test/provider-simulator.suite.ts) for Suunto, against its
 * simulator, on this run's runtime (embedded, or real Kafka, FerretDB and Redis). One file a provider,
 * so jest runs providers side by side.
 */
import { byRuntime, testRuntime } from '@wellstream/testing';
import { providerAgainstSimulator } from '../../../test/provider-simulator.suite';
import { SuuntoSimulator } from './simulator/suunto-simulator';

jest.setTimeout(byRuntime({ embedded: 240_000, distributed: 300_000 }));

describe(`Suunto (${testRuntime()})`, () => providerAgainstSimulator(() => new SuuntoSimulator(), { mode: testRuntime(), revokes: true, live: 'notify', liveResource: { name: 'workouts', path: 'workout' } }));
