/**
 * The gateway's own endpoints (the operator API, admin token), and the error schemas every part
 * refers to. Constraints follow the gateway's admin.routes.ts; links lead from each create to what
 * uses its id.
 */
import { errorResponse, errorSchemas, jsonResponse, schemaRef } from '@wellstream/http';
import { declareEndpoints } from '../endpoint';
import { openApiPart } from '../openapi-part';

const admin = { auth: 'admin' } as const;
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const nameBody = {
  required: true,
  ...json({ type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } } }),
};
const customerParam = { name: 'customer_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const time = { type: 'string', format: 'date-time' };

const gatewayApi = {
  tags: [{ name: 'operator', description: 'Operator API (admin token)' }],
  components: {
    schemas: {
      ...errorSchemas,
      Customer: { type: 'object', required: ['id', 'name', 'created_at'], properties: { id: { type: 'string' }, name: { type: 'string' }, created_at: time } },
      OrganizationSettings: {
        type: 'object',
        required: ['rules_enabled', 'history_days'],
        properties: {
          rules_enabled: { type: ['boolean', 'null'], description: 'null follows WELLSTREAM_RULES_ENABLED' },
          history_days: { type: 'integer', minimum: 1, maximum: 3650 },
        },
      },
      Organization: {
        type: 'object',
        required: ['id', 'customer_id', 'name', 'settings', 'created_at'],
        properties: { id: { type: 'string' }, customer_id: { type: 'string' }, name: { type: 'string' }, settings: schemaRef('OrganizationSettings'), created_at: time },
      },
      DeveloperToken: {
        type: 'object',
        required: ['token', 'customer_id', 'rate_limit_per_hour', 'created_at'],
        properties: { token: { type: 'string', description: 'Shown once.' }, customer_id: { type: 'string' }, rate_limit_per_hour: { type: 'integer', minimum: 1 }, created_at: time },
      },
      RevokedToken: {
        type: 'object',
        required: ['customer_id', 'rate_limit_per_hour', 'created_at', 'revoked_at'],
        properties: { customer_id: { type: 'string' }, rate_limit_per_hour: { type: 'integer' }, created_at: time, revoked_at: time },
      },
    },
  },
  paths: {
    '/admin/customers': {
      post: {
        ...admin,
        operationId: 'createCustomer',
        tags: ['operator'],
        summary: 'Create a customer',
        requestBody: nameBody,
        responses: {
          '201': {
            ...jsonResponse('The customer.', schemaRef('Customer')),
            links: {
              createOrganization: { operationId: 'createOrganization', parameters: { customer_id: '$response.body#/id' } },
              issueToken: { operationId: 'issueToken', parameters: { customer_id: '$response.body#/id' } },
              getCustomer: { operationId: 'getCustomer', parameters: { customer_id: '$response.body#/id' } },
              listOrganizations: { operationId: 'listOrganizations', parameters: { customer_id: '$response.body#/id' } },
              listTokens: { operationId: 'listTokens', parameters: { customer_id: '$response.body#/id' } },
            },
          },
          '400': errorResponse(400, 'Invalid body: `name` is 1–200 characters, not only spaces.'),
        },
      },
    },
    '/admin/customers/{customer_id}': {
      parameters: [customerParam],
      delete: {
        ...admin,
        operationId: 'deleteCustomer',
        tags: ['operator'],
        summary: 'Delete a customer: its tokens stop working at once and its event history (streams, replay) is removed',
        responses: {
          '200': jsonResponse('The deleted customer.', {
            allOf: [schemaRef('Customer'), { type: 'object', required: ['deleted_at'], properties: { deleted_at: time } }],
          }),
          '404': errorResponse(404, 'Unknown or already deleted customer.'),
        },
      },
    },
    '/admin/customers/{customer_id}/organizations': {
      parameters: [customerParam],
      post: {
        ...admin,
        operationId: 'createOrganization',
        tags: ['operator'],
        summary: 'Create an organization of a customer',
        requestBody: nameBody,
        responses: {
          '201': {
            ...jsonResponse('The organization.', schemaRef('Organization')),
            links: {
              updateOrganizationSettings: { operationId: 'updateOrganizationSettings', parameters: { org_id: '$response.body#/id' } },
              getOrganization: { operationId: 'getOrganization', parameters: { org_id: '$response.body#/id' } },
              adminGetIngestion: { operationId: 'adminGetIngestion', parameters: { org_id: '$response.body#/id' } },
              adminCountOrganizationSources: { operationId: 'adminCountOrganizationSources', parameters: { org_id: '$response.body#/id' } },
            },
          },
          '400': errorResponse(400, 'Invalid body: `name` is 1–200 characters, not only spaces.'),
          '404': errorResponse(404, 'Unknown customer.'),
        },
      },
    },
    '/admin/customers/{customer_id}/tokens': {
      parameters: [customerParam],
      post: {
        ...admin,
        operationId: 'issueToken',
        tags: ['operator'],
        summary: 'Issue a developer token (shown once)',
        requestBody: json({
          type: 'object',
          additionalProperties: false,
          properties: { rate_limit_per_hour: { type: 'integer', minimum: 1, maximum: 10_000_000, description: 'Default WELLSTREAM_DEFAULT_RATE_LIMIT_PER_HOUR' } },
        }),
        responses: {
          '201': {
            ...jsonResponse('The token.', schemaRef('DeveloperToken')),
            links: { revokeToken: { operationId: 'revokeToken', parameters: { token: '$response.body#/token' } } },
          },
          '400': errorResponse(400, 'Invalid body.'),
          '404': errorResponse(404, 'Unknown customer.'),
        },
      },
    },
    '/admin/tokens/{token}': {
      parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      delete: {
        ...admin,
        operationId: 'revokeToken',
        tags: ['operator'],
        summary: 'Revoke a developer token at once',
        responses: { '200': jsonResponse('The revoked token (without its secret).', schemaRef('RevokedToken')), '404': errorResponse(404, 'No active token matches.') },
      },
    },
    '/admin/organizations/{org_id}/settings': {
      parameters: [orgParam],
      patch: {
        ...admin,
        operationId: 'updateOrganizationSettings',
        tags: ['operator'],
        summary: 'Change organization settings (rules_enabled, history_days)',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            properties: { rules_enabled: { type: ['boolean', 'null'] }, history_days: { type: 'integer', minimum: 1, maximum: 3650 } },
          }),
        },
        responses: {
          '200': jsonResponse('The organization.', schemaRef('Organization')),
          '400': errorResponse(400, 'Invalid body (at least one of the two settings).'),
          '404': errorResponse(404, 'Unknown organization.'),
        },
      },
    },
  },
};

export const gatewayEndpoints = declareEndpoints('gateway', gatewayApi.paths);
export const gatewayOpenApi = openApiPart(gatewayEndpoints, { tags: gatewayApi.tags, schemas: gatewayApi.components.schemas });
