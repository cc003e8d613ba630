/**
 * The provider simulator suite (services/sources/test/provider-simulator.suite.ts) for Polar, against its
 * simulator, on this run's runtime (embedded, or real Kafka, FerretDB and Redis). One file a provider,
 * so jest runs providers side by side.
 */
import { byRuntime, testRuntime } from '@wellstream/testing';
import { providerAgainstSimulator } from '../../../test/provider-simulator.suite';
import { PolarSimulator } from './simulator/polar-simulator';

jest.setTimeout(byRuntime({ embedded: 240_000, distributed: 300_000 }));

describe(`Polar (${testRuntime()})`, () => providerAgainstSimulator(() => new PolarSimulator({ shortLimit: 1_000_000 }), { mode: testRuntime(), revokes: true, refreshes: false, live: 'notify', liveResource: { name: 'exercises', path: 'workout' } }));
