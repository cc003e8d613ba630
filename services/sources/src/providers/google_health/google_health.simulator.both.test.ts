/**
 * The provider simulator suite (services/sources/test/provider-simulator.suite.ts) for Google Health,
 * against its simulator, on this run's runtime (embedded, or real Kafka, FerretDB and Redis). The
 * subscriber secret is the one the README tells operators to register.
 */
import { byRuntime, testRuntime } from '@wellstream/testing';
import { providerAgainstSimulator } from '../../../test/provider-simulator.suite';
import { webhookAuthorization } from './google-health-webhooks';
import { GoogleHealthSimulator } from './simulator/google-health-simulator';

jest.setTimeout(byRuntime({ embedded: 240_000, distributed: 300_000 }));

describe(`Google Health (${testRuntime()})`, () =>
  providerAgainstSimulator(() => new GoogleHealthSimulator({ subscriberSecret: webhookAuthorization }), {
    mode: testRuntime(),
    revokes: true,
    live: 'notify',
    liveResource: { name: 'exercise', path: 'workout' },
  }));
