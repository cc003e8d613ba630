/**
 * The push service's whole HTTP suite, on both runtimes (embedded, and distributed: Kafka, MongoDB
 * API, Redis).
 */
import { byRuntime, testRuntime } from '@wellstream/testing';
import { pushDeliverySuite } from './push-delivery.suite';
import { pushResilienceSuite } from './push-resilience.suite';
import { pushTargetsSuite } from './push-targets.suite';

function notificationsSuite(mode: 'embedded' | 'distributed'): void {
  pushTargetsSuite(mode);
  pushDeliverySuite(mode);
  pushResilienceSuite(mode);
}

jest.setTimeout(byRuntime({ embedded: 60_000, distributed: 120_000 }));
notificationsSuite(testRuntime());
