/**
 * The notifications (push) service's endpoints (paths relative to /v2), as published in
 * /v2/openapi.json: an organization's notification target and its batches. Each operation carries
 * its routing (`auth`, …), which is not published.
 */
import { RESOURCE_TYPES } from '@wellstream/catalog';
import { errorResponse as err, errorSchemas } from '@wellstream/http';
import { declareEndpoints } from '../endpoint';
import { openApiPart } from '../openapi-part';

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const idParam = { name: 'id', in: 'path', required: true, description: 'Batch id', schema: { type: 'string', minLength: 1 } };
const utcSecond = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
  format: 'date-time',
  example: '2024-05-01T00:00:00Z',
};
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const tags = ['push'];

const notificationsApi = {
  tags: [
    {
      name: 'push',
      description:
        'Push service: new records of an organization are POSTed in batches to its notification target ({"id","items"}), with headers X-Wellstream-Batch-Id, X-Wellstream-Timestamp and, with a secret, X-Wellstream-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>. Any 2xx is success; other answers are retried per WELLSTREAM_PUSH_RETRY_DELAYS_MS. Items of a user deleted (or erased) before they were delivered are taken out of the batch: a try then also carries X-Wellstream-Withheld-Items (how many; never whose), the batch shows `withheld_items`, and a batch left empty is removed.',
    },
  ],
  components: {
    schemas: {
      ...errorSchemas,
      NotificationTargetInput: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: {
          url: {
            type: 'string',
            format: 'uri',
            maxLength: 2048,
            pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://',
            description: 'http or https; it must resolve, and link-local/metadata addresses are refused, private ones unless the operator allows them (422)',
          },
          secret: { type: 'string', minLength: 1, maxLength: 512, writeOnly: true, description: 'Signs deliveries; never returned' },
          resource_filter: {
            type: 'array',
            uniqueItems: true,
            maxItems: RESOURCE_TYPES.length,
            items: { type: 'string', enum: [...RESOURCE_TYPES] },
            description: 'Record types to push; empty or absent = all',
          },
        },
      },
      NotificationTarget: {
        type: 'object',
        required: ['url', 'has_secret', 'resource_filter', 'created_at', 'updated_at'],
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
          withheld_items: {
            type: 'integer',
            minimum: 1,
            description: 'Present only when some were: items taken out because their user was deleted or erased (no user is named). They are neither shown nor sent again.',
          },
        },
      },
    },
  },
  paths: {
    '/organizations/{org_id}/notification_target': {
      parameters: [orgParam],
      put: {
        ...developer,
        operationId: 'configureNotificationTarget',
        tags,
        summary: 'Configure (replace) the notification target',
        requestBody: { required: true, ...json(ref('NotificationTargetInput')) },
        responses: {
          '200': {
            description: 'Target',
            ...json(ref('NotificationTarget')),
            links: {
              getNotificationTarget: { operationId: 'getNotificationTarget', parameters: { org_id: '$request.path.org_id' } },
              listNotificationBatches: { operationId: 'listNotificationBatches', parameters: { org_id: '$request.path.org_id' } },
            },
          },
          '400': err(400, 'Not a JSON object, or a field of the wrong type'),
          '422': err(422, 'Invalid or refused url, bad filter'),
        },
      },
      get: {
        ...developer,
        operationId: 'getNotificationTarget',
        tags,
        summary: 'Read the notification target',
        responses: { '200': { description: 'Target', ...json(ref('NotificationTarget')) }, '404': err(404, 'No target configured') },
      },
      delete: {
        ...developer,
        operationId: 'deleteNotificationTarget',
        tags,
        summary: 'Remove the notification target',
        responses: { '200': { description: 'The removed target', ...json(ref('NotificationTarget')) }, '404': err(404, 'No target configured') },
      },
    },
    '/organizations/{org_id}/notifications': {
      parameters: [orgParam],
      get: {
        ...developer,
        operationId: 'listNotificationBatches',
        tags,
        summary: 'List batches, newest first',
        parameters: [
          { name: 'start_time', in: 'query', schema: utcSecond, description: 'UTC YYYY-MM-DDTHH:MM:SSZ (a real date); first attempt at or after' },
          { name: 'end_time', in: 'query', schema: utcSecond, description: 'UTC YYYY-MM-DDTHH:MM:SSZ (a real date); first attempt within or before this second' },
          { name: 'status', in: 'query', schema: { type: 'string', enum: ['success', 'failure'] }, description: 'Any case' },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
        ],
        responses: {
          '200': {
            description: 'Batches',
            ...json({
              type: 'object',
              required: ['data', 'meta'],
              properties: {
                data: { type: 'array', items: ref('NotificationBatchSummary') },
                meta: { type: 'object', required: ['offset', 'limit', 'total'], properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' }, sort: { type: 'string' } } },
              },
            }),
          },
          '400': err(400, 'Invalid filter'),
        },
      },
    },
    '/organizations/{org_id}/notifications/{id}': {
      parameters: [orgParam, idParam],
      get: {
        ...developer,
        operationId: 'getNotificationBatch',
        tags,
        summary: 'A batch with every attempt and its items',
        responses: { '200': { description: 'Batch', ...json(ref('NotificationBatch')) }, '404': err(404, 'Unknown batch') },
      },
    },
    '/organizations/{org_id}/notifications/{id}/redeliver': {
      parameters: [orgParam, idParam],
      post: {
        ...developer,
        operationId: 'redeliverNotificationBatch',
        tags,
        summary: 'Queue a new round of delivery tries (same retry schedule)',
        responses: { '202': { description: 'Batch', ...json(ref('NotificationBatch')) }, '404': err(404, 'Unknown batch'), '409': err(409, 'A try is in flight') },
      },
    },
  },
};

export const notificationsEndpoints = declareEndpoints('notifications', notificationsApi.paths);
export const notificationsOpenApi = openApiPart(notificationsEndpoints, { tags: notificationsApi.tags, schemas: notificationsApi.components.schemas });
