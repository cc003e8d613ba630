/**
 * Google's subscriber verification through the whole platform: `subscribers.create` POSTs
 * `{"type": "verification"}` to our webhook URL with the registered secret (expects 201) and without
 * it (expects 401 or 403); a subscriber is only created when both pass.
 */
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { byRuntime, testRuntime } from '@wellstream/testing';
import { webhookAuthorization } from './google-health-webhooks';
import { GoogleHealthSimulator } from './simulator/google-health-simulator';

jest.setTimeout(byRuntime({ embedded: 60_000, distributed: 120_000 }));

describe(`Google Health subscriber verification (${testRuntime()})`, () => {
  const sim = new GoogleHealthSimulator({ subscriberSecret: webhookAuthorization });
  let platform: TestPlatform;

  beforeAll(async () => {
    await sim.start();
    platform = await startTestPlatform({ mode: testRuntime(), env: sim.env(), label: 'sources-google-health-verification' });
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await sim.stop();
  });

  it('answers 201 with the secret and 401 without it', async () => {
    expect(await sim.verifySubscriber(`${platform.baseUrl}/sources/google_health/webhook`)).toEqual([201, 401]);
  });
});
