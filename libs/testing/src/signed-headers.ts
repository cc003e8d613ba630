/**
 * Headers that make a request look exactly like one the gateway forwarded: for tests that call a
 * service directly (as a gateway, with its key) or that forge one (with another key, or none).
 */
import { randomUUID } from 'node:crypto';
import { ASSERTION_HEADER, CALLER_HEADERS, OPERATOR_HEADER, signAssertion } from '@wellstream/http';

export const TEST_GATEWAY_KEY = 'test-gateway-key-0123456789abcdef0123456789';
/** The sources service's token-vault key in tests (distributed replicas must share one). */
export const TEST_SOURCE_TOKEN_KEY = 'test-source-token-key-0123456789abcdef012345';

export function gatewayHeaders(
  key: string,
  method: string,
  target: string,
  caller: { customerId?: string; organizationId?: string; operator?: boolean } = {},
  now = Date.now(),
): Record<string, string> {
  const requestId = randomUUID();
  const headers: Record<string, string> = { 'x-request-id': requestId };
  if (caller.customerId) headers[CALLER_HEADERS.customerId] = caller.customerId;
  if (caller.organizationId) headers[CALLER_HEADERS.organizationId] = caller.organizationId;
  if (caller.operator) headers[OPERATOR_HEADER] = '1';
  headers[ASSERTION_HEADER] = signAssertion(
    key,
    { method, target, requestId, customerId: caller.customerId ?? '', organizationId: caller.organizationId ?? '', operator: caller.operator ?? false },
    now,
  );
  return headers;
}
