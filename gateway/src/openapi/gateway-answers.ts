/**
 * Answers the gateway itself gives on the way to an operation, added to every operation of the
 * merged document from the route table, so no service part has to restate them: 401 for a missing
 * or wrong token (and {"errors"} for a foreign organization), 429 past the hourly limit, 400/413 for
 * bodies the JSON parser refuses, 400 for a path that is not valid percent-encoding, and 502/503
 * when the service cannot be reached. Rate-limit headers are documented where they are sent.
 */
import { errorResponse } from '@wellstream/http';
import { matchRoute } from '../proxy/route-table';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface Operation {
  operationId?: string;
  parameters?: { in: string }[];
  requestBody?: unknown;
  responses?: Record<string, { headers?: Record<string, unknown> } & Record<string, unknown>>;
}

const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per hour for this token.', schema: { type: 'integer', minimum: 1 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current hour.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'When the hour ends (Unix seconds).', schema: { type: 'integer' } },
};

const addIfMissing = (responses: Record<string, unknown>, status: number, value: unknown) => {
  if (!responses[String(status)]) responses[String(status)] = value;
};

export function addGatewayAnswers(paths: Record<string, Record<string, unknown>>): void {
  for (const [template, item] of Object.entries(paths)) {
    const pathParams = ((item.parameters as { in: string }[] | undefined) ?? []).some((p) => p.in === 'path') || template.includes('{');
    // The route table decides who authenticates; a concrete path stands in for the template.
    const rule = matchRoute(`/v2${template.replace(/\{[^}]+\}/g, 'x')}`)?.rule;
    const auth = rule?.auth ?? 'admin'; // not routed = the gateway's own operator API
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      op.operationId ??= `${method}${template.replace(/\{([^}]+)\}/g, '_by_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
      const responses = (op.responses ??= {});
      if (auth === 'developer') {
        addIfMissing(responses, 401, errorResponse(401, 'Missing or unknown token ({"message"}), or the organization in the path is not the token\'s customer\'s ({"errors"}).', rule?.organizationParam ? ['Message', 'ErrorList'] : ['Message']));
        addIfMissing(responses, 429, {
          ...errorResponse(429, 'Hourly rate limit of the token exceeded.'),
          headers: { 'Retry-After': { description: 'Seconds until the limit resets.', schema: { type: 'integer', minimum: 1 } }, ...rateLimitHeaders },
        });
        for (const [status, r] of Object.entries(responses)) if (status !== '401') r.headers = { ...rateLimitHeaders, ...r.headers };
      } else if (auth === 'admin') {
        addIfMissing(responses, 401, errorResponse(401, 'Missing token, or not the operator token.', ['Message']));
      }
      if (op.requestBody) {
        addIfMissing(responses, 400, errorResponse(400, 'Malformed JSON ({"errors":[…]}) or invalid fields ({"errors":{field:[…]}}).'));
        addIfMissing(responses, 413, errorResponse(413, 'The body is over the size limit.'));
      }
      if (pathParams) addIfMissing(responses, 400, errorResponse(400, 'A path segment that is not valid percent-encoding ({"errors":[…]}).', ['ErrorList']));
      if (rule) {
        addIfMissing(responses, 502, errorResponse(502, 'Not answered by this release (a service that cannot be reached answers 503); kept for clients generated from earlier documents.'));
        addIfMissing(responses, 503, {
          ...errorResponse(503, 'The service is not available: not running, not reachable, or it did not start its answer within 30 s.'),
          headers: { 'Retry-After': { description: 'Seconds after which a retry may succeed (sent when the service could not be reached).', schema: { type: 'integer', minimum: 1 } } },
        });
      }
    }
  }
}
