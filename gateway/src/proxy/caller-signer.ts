/**
 * The signing half of gateway-to-service trust (libs/http gateway-assertion): the last step before
 * a request is forwarded signs the caller headers the pipeline set (customer, organization,
 * operator flag) together with the method, the request target and the request id, with the first
 * configured key.
 */
import type { IncomingMessage } from 'node:http';
import { ASSERTION_HEADER, CALLER_HEADERS, OPERATOR_HEADER, signAssertion } from '@wellstream/http';

export function callerSigner(keys: readonly string[], now: () => number = Date.now): (req: IncomingMessage) => void {
  const key = keys[0];
  if (!key) throw new Error('the gateway needs a key to sign caller assertions');
  return (req) => {
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    req.headers[ASSERTION_HEADER] = signAssertion(
      key,
      {
        method: req.method ?? '',
        // The request line as forwarded.
        target: req.url ?? '',
        requestId: header('x-request-id'),
        customerId: header(CALLER_HEADERS.customerId),
        organizationId: header(CALLER_HEADERS.organizationId),
        operator: header(OPERATOR_HEADER) === '1',
      },
      now(),
    );
  };
}
