/**
 * OpenAPI part of the gateway's own endpoints: health and the operator API.
 */
import type { OpenApiPart } from './openapi-merge';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const err = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/Error' }) });
const nameBody = { required: true, ...json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) };

export const gatewayOpenApi: OpenApiPart = {
  tags: [{ name: 'operator', description: 'Operator API (admin token)' }],
  components: {
    schemas: {
      Error: {
        oneOf: [
          { type: 'object', properties: { message: { type: 'string' } } },
          { type: 'object', properties: { errors: { type: 'array', items: { type: 'string' } } } },
          { type: 'object', properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } } },
        ],
      },
    },
  },
  paths: {
    '/admin/customers': {
      post: { tags: ['operator'], summary: 'Create a customer', requestBody: nameBody, responses: { '201': { description: 'Customer' }, '400': err('Invalid body'), '401': err('Not the admin token') } },
    },
    '/admin/customers/{customer_id}': {
      delete: {
        tags: ['operator'],
        summary: "Delete a customer: its tokens stop working at once and its event history (streams, replay) is removed",
        parameters: [{ name: 'customer_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The deleted customer, with deleted_at' }, '401': err('Not the admin token'), '404': err('Unknown customer') },
      },
    },
    '/admin/customers/{customer_id}/organizations': {
      post: {
        tags: ['operator'],
        summary: 'Create an organization of a customer',
        parameters: [{ name: 'customer_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: nameBody,
        responses: { '201': { description: 'Organization' }, '404': err('Unknown customer') },
      },
    },
    '/admin/customers/{customer_id}/tokens': {
      post: {
        tags: ['operator'],
        summary: 'Issue a developer token (shown once)',
        parameters: [{ name: 'customer_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: json({ type: 'object', properties: { rate_limit_per_hour: { type: 'integer', minimum: 1, default: 2000 } } }),
        responses: { '201': { description: 'Token' }, '404': err('Unknown customer') },
      },
    },
    '/admin/tokens/{token}': {
      delete: {
        tags: ['operator'],
        summary: 'Revoke a developer token at once',
        parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'Revoked' }, '404': err('No active token matches') },
      },
    },
    '/admin/organizations/{org_id}/settings': {
      patch: {
        tags: ['operator'],
        summary: 'Change organization settings (rules_enabled, history_days)',
        parameters: [{ name: 'org_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: json({ type: 'object', properties: { rules_enabled: { type: ['boolean', 'null'] }, history_days: { type: 'integer' } } }),
        responses: { '200': { description: 'Organization' }, '404': err('Unknown organization') },
      },
    },
  },
};
