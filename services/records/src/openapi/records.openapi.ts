/**
 * The records service's part of the OpenAPI document (paths relative to /v2); the gateway merges it.
 */
import { METRICS, RESOURCE_PATHS, SOURCE_TYPES } from '@wellstream/catalog';
import { WORKOUT_CATEGORIES } from '../records/ingest-records/ingest-records.schema';
import { GRANULARITIES } from '../records/ingest-records/record-fields.schema';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorBody = (description: string) => ({ description, content: { 'application/json': { schema: ref('RecordsError') } } });
const utc = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', example: '2024-03-01T07:30:00Z' };

function listPath(plural: string, type: string) {
  return {
    get: {
      tags: ['Records'],
      summary: `A user's ${plural}`,
      description:
        `Live ${type} records of the user whose LOCAL start day (start_time + utc_offset) is within [start_date, end_date], ` +
        'sorted by start_time. At most 30 days per request; days older than the organization\'s history (default 183 days) are not served.',
      parameters: [
        { name: 'org_id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'uid', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'start_date', in: 'query', schema: { type: 'string', format: 'date' }, description: 'YYYY-MM-DD; default the current UTC day' },
        { name: 'end_date', in: 'query', schema: { type: 'string', format: 'date' }, description: 'YYYY-MM-DD; default the current UTC day' },
        { name: 'source', in: 'query', schema: { type: 'string' }, description: `One source type or a comma list (${SOURCE_TYPES.join(', ')})` },
      ],
      responses: {
        200: { description: 'The records', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: ref('Record') } } } } } },
        400: errorBody('Bad date or range, e.g. {"errors":{"start_date":["…"]}}'),
        401: errorBody('Token missing, unknown, or not allowed for the organization'),
        404: errorBody('Unknown user'),
        422: errorBody('Unknown source, {"errors":{"type":["…"]}}'),
      },
    },
  };
}

export function recordsOpenApi() {
  const paths: Record<string, unknown> = {
    '/mobile/records': {
      post: {
        tags: ['Records'],
        summary: 'Ingest records (mobile solution and source connectors)',
        description:
          'Authenticated by the user\'s mobile token (`token` query parameter), not a developer token. All-or-nothing: one invalid record rejects the request. ' +
          '(user, source.type, log_id) identifies a record: identical content changes nothing; other content updates it (same id, new checksum); `"deleted": true` deletes it.',
        security: [],
        parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: "The user's mobile.token" }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('IngestRequest') } } },
        responses: {
          200: { description: 'Stored records', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: ref('Record') } } } } } },
          400: errorBody('Invalid records, e.g. {"errors":{"records[3].metrics[0].value":["…"]}}'),
          401: errorBody('Unknown mobile token (or the user was deleted)'),
          422: errorBody('The user is suspended: {"errors":{"user":["user is suspended"]}}'),
        },
      },
    },
  };
  for (const [plural, type] of Object.entries(RESOURCE_PATHS)) paths[`/organizations/{org_id}/users/{uid}/${plural}`] = listPath(plural, type);
  return {
    tags: [{ name: 'Records', description: 'Wellness records: ingestion and queries' }],
    paths,
    components: {
      schemas: {
        RecordsError: { type: 'object', properties: { errors: {}, message: { type: 'string' } } },
        Metric: {
          type: 'object',
          required: ['type', 'unit', 'value'],
          properties: {
            type: { type: 'string', enum: METRICS.map((m) => m.type) },
            unit: { type: 'string', description: 'One of the metric type\'s units (metric catalog)' },
            value: { type: 'number' },
            origin: { type: 'string', enum: ['device', 'manual', 'unknown'], default: 'unknown' },
          },
        },
        SeriesMetric: {
          type: 'object',
          description: 'intraday and cgm metrics: time-stamped samples of one metric type',
          required: ['type', 'unit', 'granularity', 'samples'],
          properties: {
            type: { type: 'string' },
            unit: { type: 'string' },
            origin: { type: 'string', enum: ['device', 'manual', 'unknown'] },
            granularity: { type: 'string', enum: [...GRANULARITIES] },
            samples: { type: 'array', items: { type: 'object', properties: { time: utc, value: { type: 'number' } } } },
          },
        },
        IngestRequest: {
          type: 'object',
          required: ['records'],
          properties: {
            records: {
              type: 'array',
              maxItems: 1000,
              items: {
                type: 'object',
                required: ['type', 'source', 'log_id', 'start_time', 'end_time', 'metrics'],
                properties: {
                  type: { type: 'string', enum: ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday', 'cgm'] },
                  source: { type: 'object', properties: { type: { type: 'string', enum: SOURCE_TYPES }, device: { type: 'object' } } },
                  log_id: { type: 'string' },
                  start_time: utc,
                  end_time: utc,
                  utc_offset: { type: 'integer', description: 'Seconds; computed from the user\'s time zone when absent' },
                  metrics: { type: 'array', items: { oneOf: [ref('Metric'), ref('SeriesMetric')] } },
                  deleted: { type: 'boolean' },
                  name: { type: 'string', description: 'nutrition, workout' },
                  category: { type: 'string', description: `nutrition: food|meal|other; summary: daily; workout: ${WORKOUT_CATEGORIES.join('|')}` },
                  segments: { type: 'array', items: { type: 'object' } },
                  user_notes: { type: 'array', items: {} },
                  tags: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
        Record: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            type: { type: 'string' },
            version: { type: 'string', example: '1.0' },
            checksum: { type: 'string' },
            log_id: { type: 'string' },
            start_time: utc,
            end_time: utc,
            utc_offset: { type: 'integer' },
            offset_origin: { type: 'string', enum: ['source', 'profile', 'user_defined'] },
            user: { type: 'object', properties: { uid: { type: 'string' }, user_id: { type: 'string' }, organization_id: { type: 'string' } } },
            source: { type: 'object', properties: { type: { type: 'string' }, device: { type: 'object' } } },
            metrics: { type: 'array', items: { oneOf: [ref('Metric'), ref('SeriesMetric')] } },
            created_at: { type: 'string', format: 'date-time' },
            deleted_at: { type: ['string', 'null'] },
            user_notes: { type: 'array', items: {} },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  };
}
