/**
 * The rules service's endpoints (paths relative to /v2), as published in /v2/openapi.json: a
 * user's adherence rules. Each operation carries its routing (`auth`, …), which is not published.
 */
import { COMPARATORS, METRIC_ORIGINS, METRIC_TYPES, RULE_TYPES } from '@wellstream/catalog';
import { errorResponse, errorSchemas } from '@wellstream/http';
import { declareEndpoints } from '../endpoint';
import { openApiPart } from '../openapi-part';

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const uidParam = { name: 'uid', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const ruleIdParam = { name: 'rule_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };

const disabled = errorResponse(
  422,
  'The rules feature is disabled for the organization ({"errors":["the rules feature is disabled"]}), the user is suspended, or a field is invalid ({"errors":{"<field>":[...]}})',
);
const common = { '404': errorResponse(404, 'Unknown user or rule'), '422': disabled };
const ruleLinks = {
  getRule: { operationId: 'getRule', parameters: { org_id: '$request.path.org_id', uid: '$request.path.uid', rule_id: '$response.body#/id' } },
  updateRule: { operationId: 'updateRule', parameters: { org_id: '$request.path.org_id', uid: '$request.path.uid', rule_id: '$response.body#/id' } },
  deleteRule: { operationId: 'deleteRule', parameters: { org_id: '$request.path.org_id', uid: '$request.path.uid', rule_id: '$response.body#/id' } },
};

const rulesApi = {
  tags: [{ name: 'rules', description: 'Adherence rules (feature disabled unless the operator enables it)' }],
  components: {
    schemas: {
      ...errorSchemas,
      RuleInput: {
        type: 'object',
        required: ['type', 'window', 'message', 'metric', 'threshold'],
        properties: {
          type: { type: 'string', enum: [...RULE_TYPES] },
          window: { type: 'string', description: 'ISO 8601 duration (sliding window), 1 s to 1 year, e.g. P3D, PT12H, P1W (others: 422)', example: 'P3D' },
          message: { type: 'string', description: 'Returned in the rule event; any length' },
          metric: {
            type: 'object',
            required: ['type'],
            properties: {
              type: { type: 'string', enum: METRIC_TYPES },
              unit: { type: ['string', 'null'], description: 'One of the metric type’s units; null = any' },
              origin: { type: ['string', 'null'], enum: [...METRIC_ORIGINS, null], description: 'null = any' },
              sub_type: { type: ['string', 'null'], description: 'Not in use; echoed in the rule event' },
            },
          },
          threshold: {
            type: 'object',
            required: ['value', 'comparator'],
            properties: { value: { type: 'number' }, comparator: { type: 'string', enum: [...COMPARATORS] } },
          },
        },
      },
      Rule: {
        allOf: [
          ref('RuleInput'),
          {
            type: 'object',
            required: ['id', 'created_at', 'updated_at'],
            properties: {
              id: { type: 'string' },
              created_at: { type: 'string', format: 'date-time' },
              updated_at: { type: 'string', format: 'date-time' },
              deleted_at: { type: 'string', format: 'date-time', description: 'Only in the delete response' },
            },
          },
        ],
      },
      RuleEventPayload: {
        type: 'object',
        description: 'Payload of the SSE `rule` event (streams and replay only)',
        properties: {
          user: { type: 'object', properties: { uid: { type: 'string' }, user_id: { type: 'string' }, organization_id: { type: 'string' } } },
          rule: ref('RuleInput'),
          data: {
            type: 'array',
            items: { type: 'object', properties: { type: { type: 'string' }, data: { type: 'object', properties: { count: { type: 'integer' } } } } },
          },
          created_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
  paths: {
    '/organizations/{org_id}/users/{uid}/rules': {
      parameters: [orgParam, uidParam],
      get: {
        ...developer,
        operationId: 'listRules',
        tags: ['rules'],
        summary: "List a user's rules",
        responses: { '200': { description: 'Rules', ...json({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('Rule') } } }) }, ...common },
      },
      post: {
        ...developer,
        operationId: 'createRule',
        tags: ['rules'],
        summary: 'Create a rule',
        description: 'Every invalid field (wrong type included) is a 422 naming it; only malformed JSON is a 400.',
        requestBody: { required: true, ...json(ref('RuleInput')) },
        responses: { '201': { description: 'Rule with id', ...json(ref('Rule')), links: ruleLinks }, '400': errorResponse(400, 'Malformed JSON', ['ErrorList']), ...common },
      },
    },
    '/organizations/{org_id}/users/{uid}/rules/{rule_id}': {
      parameters: [orgParam, uidParam, ruleIdParam],
      get: { ...developer, operationId: 'getRule', tags: ['rules'], summary: 'Read a rule', responses: { '200': { description: 'Rule', ...json(ref('Rule')) }, ...common } },
      put: {
        ...developer,
        operationId: 'updateRule',
        tags: ['rules'],
        summary: 'Replace a rule’s fields (a criteria change restarts its observation window)',
        requestBody: { required: true, ...json(ref('RuleInput')) },
        responses: { '200': { description: 'Rule', ...json(ref('Rule')) }, '400': errorResponse(400, 'Malformed JSON', ['ErrorList']), ...common },
      },
      delete: { ...developer, operationId: 'deleteRule', tags: ['rules'], summary: 'Delete a rule', responses: { '200': { description: 'The deleted rule', ...json(ref('Rule')) }, ...common } },
    },
  },
};

export const rulesEndpoints = declareEndpoints('rules', rulesApi.paths);
export const rulesOpenApi = openApiPart(rulesEndpoints, { tags: rulesApi.tags, schemas: rulesApi.components.schemas });
