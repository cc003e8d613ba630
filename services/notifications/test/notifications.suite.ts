/**
 * The push service's whole HTTP suite, run by notifications.test.ts (embedded) and
 * notifications.int.test.ts (distributed: Kafka, MongoDB API, Redis).
 */
import { pushDeliverySuite } from './push-delivery.suite';
import { pushResilienceSuite } from './push-resilience.suite';
import { pushTargetsSuite } from './push-targets.suite';

export function notificationsSuite(mode: 'embedded' | 'distributed'): void {
  pushTargetsSuite(mode);
  pushDeliverySuite(mode);
  pushResilienceSuite(mode);
}
