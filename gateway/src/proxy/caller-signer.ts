/**
 * The signing half of gateway-to-service trust (libs/http gateway-assertion): the last step before
 * the proxy signs the caller headers the pipeline set (customer, organization, operator flag)
 * together with the method, the request target and the request id, with the first configured key.
 */
import type { RequestHandler } from 'express';
import { ASSERTION_HEADER, CALLER_HEADERS, OPERATOR_HEADER, signAssertion } from '@wellstream/http';

export function signCaller(keys: readonly string[], now: () => number = Date.now): RequestHandler {
  const key = keys[0];
  if (!key) throw new Error('the gateway needs a key to sign caller assertions');
  return (req, _res, next) => {
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : '';
    };
    req.headers[ASSERTION_HEADER] = signAssertion(
      key,
      {
        method: req.method,
        // What http-proxy-middleware forwards as the request line.
        target: req.url,
        requestId: header('x-request-id'),
        customerId: header(CALLER_HEADERS.customerId),
        organizationId: header(CALLER_HEADERS.organizationId),
        operator: header(OPERATOR_HEADER) === '1',
      },
      now(),
    );
    next();
  };
}
