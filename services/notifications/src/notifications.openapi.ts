/**
 * OpenAPI part of the push service (served at GET /openapi.json; the gateway merges it). Paths are
 * relative to /v2.
 */
import { RESOURCE_TYPES } from '@wellstream/catalog';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const err = (description: string) => ({ description, ...json(ref('Error')) });
const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string' } };
const idParam = { name: 'id', in: 'path', required: true, description: 'Batch id', schema: { type: 'string' } };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const tags = ['push'];

export const notificationsOpenApi = {
  tags: [
    {
      name: 'push',
      description:
        'Push service: new records of an organization are POSTed in batches to its notification target ({"id","items"}), with headers X-Wellstream-Batch-Id, X-Wellstream-Timestamp and, with a secret, X-Wellstream-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>. Any 2xx is success; other answers are retried per WELLSTREAM_PUSH_RETRY_DELAYS_MS.',
    },
  ],
  components: {
    schemas: {
      NotificationTargetInput: {
        type: 'object',
        required: ['url'],
        properties: {
          url: { type: 'string', format: 'uri', description: 'http or https; link-local/metadata addresses are refused, private ones unless the operator allows them' },
          secret: { type: 'string', writeOnly: true, description: 'Signs deliveries; never returned' },
          resource_filter: { type: 'array', items: { type: 'string', enum: [...RESOURCE_TYPES] }, description: 'Record types to push; empty or absent = all' },
        },
      },
      NotificationTarget: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          has_secret: { type: 'boolean' },
          resource_filter: { type: 'array', items: { type: 'string' } },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
      NotificationAttempt: {
        type: 'object',
        properties: {
          transmitted_at: { type: 'string', format: 'date-time' },
          response: {
            type: 'object',
            properties: { code: { type: 'integer', description: '0 when no response was received' }, body: { type: 'string', description: 'First 2 KiB' } },
          },
        },
      },
      NotificationBatchSummary: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['SUCCESS', 'FAILURE'], description: 'FAILURE until a try succeeds' },
          attempts: { type: 'object', properties: { first_at: nullableTime, last_at: nullableTime, count: { type: 'integer' } } },
          next_attempt_at: { ...nullableTime, description: 'When the next try is scheduled; null when the status is final' },
          item_count: { type: 'integer' },
          created_at: { type: 'string', format: 'date-time' },
        },
      },
      NotificationBatch: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['SUCCESS', 'FAILURE'] },
          attempts: {
            type: 'object',
            properties: { start_at: nullableTime, last_at: nullableTime, details: { type: 'array', items: ref('NotificationAttempt') } },
          },
          next_attempt_at: nullableTime,
          created_at: { type: 'string', format: 'date-time' },
          items: { type: 'array', items: { type: 'object' } },
        },
      },
    },
  },
  paths: {
    '/organizations/{org_id}/notification_target': {
      parameters: [orgParam],
      put: {
        tags,
        summary: 'Configure (replace) the notification target',
        requestBody: { required: true, ...json(ref('NotificationTargetInput')) },
        responses: { '200': { description: 'Target', ...json(ref('NotificationTarget')) }, '400': err('Not a JSON object'), '422': err('Invalid or refused url, bad filter') },
      },
      get: { tags, summary: 'Read the notification target', responses: { '200': { description: 'Target', ...json(ref('NotificationTarget')) }, '404': err('No target configured') } },
      delete: { tags, summary: 'Remove the notification target', responses: { '200': { description: 'The removed target', ...json(ref('NotificationTarget')) }, '404': err('No target configured') } },
    },
    '/organizations/{org_id}/notifications': {
      parameters: [orgParam],
      get: {
        tags,
        summary: 'List batches, newest first',
        parameters: [
          { name: 'start_time', in: 'query', schema: { type: 'string', example: '2024-05-01T00:00:00Z' }, description: 'UTC YYYY-MM-DDTHH:MM:SSZ; first attempt at or after' },
          { name: 'end_time', in: 'query', schema: { type: 'string' }, description: 'UTC YYYY-MM-DDTHH:MM:SSZ; first attempt within or before this second' },
          { name: 'status', in: 'query', schema: { type: 'string', enum: ['success', 'failure'] } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
        ],
        responses: {
          '200': {
            description: 'Batches',
            ...json({
              type: 'object',
              properties: {
                data: { type: 'array', items: ref('NotificationBatchSummary') },
                meta: { type: 'object', properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' }, sort: { type: 'string' } } },
              },
            }),
          },
          '400': err('Invalid filter'),
        },
      },
    },
    '/organizations/{org_id}/notifications/{id}': {
      parameters: [orgParam, idParam],
      get: { tags, summary: 'A batch with every attempt and its items', responses: { '200': { description: 'Batch', ...json(ref('NotificationBatch')) }, '404': err('Unknown batch') } },
    },
    '/organizations/{org_id}/notifications/{id}/redeliver': {
      parameters: [orgParam, idParam],
      post: {
        tags,
        summary: 'Queue a new round of delivery tries (same retry schedule)',
        responses: { '202': { description: 'Batch', ...json(ref('NotificationBatch')) }, '404': err('Unknown batch'), '409': err('A try is in flight') },
      },
    },
  },
};
