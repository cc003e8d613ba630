/**
 * OpenAPI part of the rules endpoints (served at GET /openapi.json; the gateway merges it into
 * /v2/openapi.json). Paths are relative to /v2.
 */
import { METRIC_ORIGINS, METRIC_TYPES } from '@wellstream/catalog';
import { COMPARATORS, RULE_TYPES } from '../rules/rule';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const err = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/Error' }) });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string' } };
const uidParam = { name: 'uid', in: 'path', required: true, schema: { type: 'string' } };
const ruleIdParam = { name: 'rule_id', in: 'path', required: true, schema: { type: 'string' } };

const disabled = err('The rules feature is disabled for the organization ({"errors":["the rules feature is disabled"]}), the user is suspended, or a field is invalid ({"errors":{"<field>":[...]}})');
const common = { '401': err('Missing/unknown token, or organization not allowed'), '404': err('Unknown user or rule'), '422': disabled };

export const rulesOpenApi = {
  tags: [{ name: 'rules', description: 'Adherence rules (feature disabled unless the operator enables it)' }],
  components: {
    schemas: {
      RuleInput: {
        type: 'object',
        required: ['type', 'window', 'message', 'metric', 'threshold'],
        properties: {
          type: { type: 'string', enum: [...RULE_TYPES] },
          window: { type: 'string', description: 'ISO 8601 duration (sliding window), 1 s to 1 year, e.g. P3D, PT12H, P1W', example: 'P3D' },
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
        tags: ['rules'],
        summary: "List a user's rules",
        responses: { '200': { description: 'Rules', ...json({ type: 'object', properties: { data: { type: 'array', items: ref('Rule') } } }) }, ...common },
      },
      post: {
        tags: ['rules'],
        summary: 'Create a rule',
        requestBody: { required: true, ...json(ref('RuleInput')) },
        responses: { '201': { description: 'Rule with id', ...json(ref('Rule')) }, '400': err('Malformed JSON'), ...common },
      },
    },
    '/organizations/{org_id}/users/{uid}/rules/{rule_id}': {
      parameters: [orgParam, uidParam, ruleIdParam],
      get: { tags: ['rules'], summary: 'Read a rule', responses: { '200': { description: 'Rule', ...json(ref('Rule')) }, ...common } },
      put: {
        tags: ['rules'],
        summary: 'Replace a rule’s fields (a criteria change restarts its observation window)',
        requestBody: { required: true, ...json(ref('RuleInput')) },
        responses: { '200': { description: 'Rule', ...json(ref('Rule')) }, '400': err('Malformed JSON'), ...common },
      },
      delete: { tags: ['rules'], summary: 'Delete a rule', responses: { '200': { description: 'The deleted rule', ...json(ref('Rule')) }, ...common } },
    },
  },
};
