/**
 * Counts push attempts by result for /metrics: `success` (2xx), `http_error` (the receiver
 * answered otherwise), `no_response` (refused, timed out or blocked: code 0).
 */
import type { ServiceMetrics } from '@wellstream/http';
import type { PushSender } from './push-sender';

export function countingSender(inner: PushSender, metrics: ServiceMetrics): PushSender {
  const attempts = metrics.counter('push_attempts_total', 'Push delivery attempts by result', ['result']);
  return {
    async send(request, signal) {
      const response = await inner.send(request, signal);
      const result = response.code >= 200 && response.code < 300 ? 'success' : response.code === 0 ? 'no_response' : 'http_error';
      attempts.inc({ result });
      return response;
    },
  };
}
