/**
 * The operator's account reads (the gateway's accounts/reads): customers, organizations and
 * tokens with their hourly usage. Merged with the gateway's part path by path (openapi-merge.ts),
 * so the reads sit beside the writes on the same paths.
 */
import { errorResponse, jsonResponse, schemaRef } from '@wellstream/http';
import { declareEndpoints } from '../endpoint';
import { openApiPart } from '../openapi-part';

const time = { type: 'string', format: 'date-time' };
const customerParam = { name: 'customer_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const pageParams = [
  { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 } },
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
  { name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['created_at', '-created_at'], default: 'created_at' }, description: 'By creation, oldest first (`-created_at`: newest first).' },
];
const pageOf = (item: string) => ({
  type: 'object',
  required: ['data', 'meta'],
  additionalProperties: false,
  properties: { data: { type: 'array', items: schemaRef(item) }, meta: schemaRef('OperatorPageMeta') },
});
const badPaging = errorResponse(400, 'A paging parameter out of range or repeated ({"errors":{field:[…]}}).', ['FieldErrors']);
const usageUnavailable = {
  ...errorResponse(503, 'The rate-limit store (Redis) cannot be read; retry after the given seconds.'),
  headers: { 'Retry-After': { description: 'Seconds after which a retry may succeed.', schema: { type: 'integer', minimum: 1 } } },
};
const read = (operationId: string, summary: string, responses: Record<string, unknown>, parameters?: unknown[]) => ({
  auth: 'admin' as const,
  operationId,
  tags: ['operator'],
  summary,
  ...(parameters ? { parameters } : {}),
  responses,
});

const operatorReadsApi = {
  components: {
    schemas: {
      OperatorPageMeta: {
        type: 'object',
        required: ['offset', 'limit', 'total', 'sort'],
        additionalProperties: false,
        properties: { offset: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1 }, total: { type: 'integer', minimum: 0 }, sort: { type: 'string', enum: ['created_at', '-created_at'] } },
      },
      HourUsage: {
        type: 'object',
        required: ['start', 'requests'],
        additionalProperties: false,
        properties: {
          start: time,
          requests: { type: 'integer', minimum: 0, description: 'Requests allowed in the hour (refused ones are not counted).' },
          remaining: { type: 'integer', minimum: 0, description: 'Current hour only: what the limit still allows.' },
        },
      },
      TokenInfo: {
        type: 'object',
        description: 'A developer token as the operator sees it: never the token itself (only its sha256 is stored).',
        required: ['id', 'prefix', 'customer_id', 'rate_limit_per_hour', 'created_at', 'revoked_at', 'usage'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The sha256 (hex) of the token, under which it is stored.' },
          prefix: { type: ['string', 'null'], description: 'The first 12 characters (`wst_` and 8 more); null for tokens issued before prefixes were kept.' },
          customer_id: { type: 'string' },
          rate_limit_per_hour: { type: 'integer', minimum: 1 },
          created_at: time,
          revoked_at: { type: ['string', 'null'], format: 'date-time' },
          usage: {
            type: 'object',
            required: ['current_hour', 'previous_hour'],
            additionalProperties: false,
            properties: {
              current_hour: { allOf: [schemaRef('HourUsage'), { required: ['remaining'] }] },
              previous_hour: schemaRef('HourUsage'),
            },
          },
        },
      },
    },
  },
  paths: {
    '/admin/customers': {
      get: read('listCustomers', 'List customers (deleted ones left out)', { '200': jsonResponse('A page of customers.', pageOf('Customer')), '400': badPaging }, pageParams),
    },
    '/admin/customers/{customer_id}': {
      get: read('getCustomer', 'Get a customer', {
        '200': jsonResponse('The customer.', schemaRef('Customer')),
        '404': errorResponse(404, 'Unknown or deleted customer.'),
      }),
    },
    '/admin/customers/{customer_id}/organizations': {
      get: read(
        'listOrganizations',
        "List a customer's organizations",
        { '200': jsonResponse('A page of organizations.', pageOf('Organization')), '400': badPaging, '404': errorResponse(404, 'Unknown or deleted customer.') },
        pageParams,
      ),
    },
    '/admin/organizations/{org_id}': {
      parameters: [{ name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      get: read('getOrganization', 'Get an organization', {
        '200': jsonResponse('The organization.', schemaRef('Organization')),
        '404': errorResponse(404, 'Unknown organization (or its customer was deleted).'),
      }),
    },
    '/admin/customers/{customer_id}/tokens': {
      get: read(
        'listTokens',
        "List a customer's developer tokens (revoked ones too), each by prefix with its requests this hour and the last",
        { '200': jsonResponse('A page of tokens.', pageOf('TokenInfo')), '400': badPaging, '404': errorResponse(404, 'Unknown or deleted customer.'), '503': usageUnavailable },
        pageParams,
      ),
    },
    '/admin/customers/{customer_id}/tokens/{token_id}': {
      parameters: [customerParam, { name: 'token_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'The token\'s `id` (its sha256), as the list shows it.' }],
      get: read('getToken', 'Get one developer token with its requests this hour and the last, against its limit', {
        '200': jsonResponse('The token.', schemaRef('TokenInfo')),
        '404': errorResponse(404, 'Unknown customer, or no such token of this customer.'),
        '503': usageUnavailable,
      }),
    },
  },
};

export const operatorReadsEndpoints = declareEndpoints('gateway', operatorReadsApi.paths);
export const operatorReadsOpenApi = openApiPart(operatorReadsEndpoints, { schemas: operatorReadsApi.components.schemas });
