/**
 * The records service's endpoints (paths relative to /v2), as published in /v2/openapi.json:
 * ingestion from the mobile solution, the record reads, merging and availability, the operator's
 * ingestion counts. Each operation carries its routing (`auth`, …), which is not published.
 */
import { METRICS, RESOURCE_PATHS, SOURCE_TYPES } from '@wellstream/catalog';
import { idempotent } from '../idempotency';
import { errorResponse, errorSchemas, jsonResponse } from '@wellstream/http';
import { GRANULARITIES, WORKOUT_CATEGORIES } from '@wellstream/contracts';
import { declareEndpoints, DeclaredPathItem } from '../endpoint';
import { openApiPart } from '../openapi-part';
import { mergingPaths, mergingSchemas } from './merging.endpoints';
import { ingestionPaths, ingestionSchemas } from './ingestion.endpoints';
import { fhirExportPaths, fhirPaths, fhirSchemas, fhirTag } from './fhir.endpoints';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' };
const recordList = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: ref('Record') } },
};
const listAnswer = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: { anyOf: [ref('Record'), ref('MergedRecord'), ref('KeptRecord')] } } },
};
const utc = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', example: '2024-03-01T07:30:00Z' };
/** Ingestion also reads a fraction of a second (what toISOString() writes) and drops it: records are stored and served to the second. */
const utcInput = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$',
  example: '2024-03-01T07:30:00Z',
  description: 'UTC; a fraction of a second (e.g. 2024-03-01T07:30:00.123Z) is accepted and dropped.',
};

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;

function listPath(plural: string, type: string): DeclaredPathItem {
  return {
    get: {
      ...developer,
      tags: ['Records'],
      operationId: `list${plural[0].toUpperCase()}${plural.slice(1)}`,
      summary: `A user's ${plural}`,
      description:
        `Live ${type} records of the user whose LOCAL start day (start_time + utc_offset) is within [start_date, end_date], ` +
        'sorted by start_time. Cross-parameter rules (400 otherwise): end_date is not before start_date, and the range from start_date ' +
        'to end_date is at most 30 days; a parameter left out is the current UTC day, so start_date alone must lie within the last 30 days ' +
        "and end_date alone must not be in the past. Days older than the organization's history (default 183 days) are not served.",
      parameters: [
        { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
        { name: 'uid', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
        { name: 'start_date', in: 'query', schema: date, description: 'YYYY-MM-DD (a calendar date); default the current UTC day' },
        { name: 'end_date', in: 'query', schema: date, description: 'YYYY-MM-DD (a calendar date); default the current UTC day' },
        {
          name: 'source',
          in: 'query',
          schema: { type: 'string', maxLength: 1000 },
          description: `One source type or a comma list (${SOURCE_TYPES.join(', ')}); an unknown one is a 422; empty = all`,
        },
        {
          name: 'merged',
          in: 'query',
          schema: { type: 'string', enum: ['true', 'false'] },
          description:
            type === 'summary' || type === 'sleep'
              ? `true: one ${type === 'summary' ? 'summary per local day' : 'sleep per night'} built from every source (or the \`source\` list) by the organization's source priority (MergedRecord); false or absent: the stored records. Another value: 400.`
              : "true: records of different sources that overlap in time are resolved by the organization's source priority, the best-ranked kept with `duplicates` (KeptRecord); false or absent: the stored records. Another value: 400.",
        },
      ],
      responses: {
        200: jsonResponse('The records', listAnswer),
        400: errorResponse(400, 'Bad date or range, e.g. {"errors":{"start_date":["…"]}}, or merged not true/false'),
        404: errorResponse(404, 'Unknown user'),
        422: errorResponse(422, 'Unknown source, {"errors":{"type":["…"]}}'),
      },
    },
  };
}

function recordsApi() {
  const paths: Record<string, DeclaredPathItem> = {
    '/mobile/records': {
      post: idempotent({
        // The user's mobile token (a query parameter) is the credential.
        auth: 'public',
        operationId: 'ingestMobileRecords',
        tags: ['Records'],
        summary: 'Ingest records (mobile solution and source connectors)',
        description:
          'Authenticated by the user\'s mobile token (`token` query parameter), not a developer token. All-or-nothing: one invalid record rejects the request. ' +
          '(user, source.type, log_id) identifies a record: identical content changes nothing; other content updates it (same id, new checksum); `"deleted": true` deletes it. ' +
          'A new record that repeats a stored live record of the same source under another log_id (same type, content and times) is a duplicate: its entry is the stored record with `duplicate_of`, and nothing is stored or emitted.',
        security: [],
        parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string', minLength: 1 }, description: "The user's mobile.token" }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('IngestRequest') } } },
        responses: {
          200: jsonResponse('Stored records', recordList),
          400: errorResponse(400, 'Invalid records, e.g. {"errors":{"records[3].metrics[0].value":["…"]}}; per-type rules are in the records README.'),
          401: errorResponse(401, 'Unknown mobile token (or the user was deleted)', ['Message']),
          422: errorResponse(422, 'The user is suspended: {"errors":{"user":["user is suspended"]}}'),
        },
      }),
    },
  };
  for (const [plural, type] of Object.entries(RESOURCE_PATHS)) paths[`/organizations/{org_id}/users/{uid}/${plural}`] = listPath(plural, type);
  Object.assign(paths, mergingPaths, ingestionPaths, fhirPaths, fhirExportPaths);
  return {
    tags: [{ name: 'Records', description: 'Wellness records: ingestion and queries' }, fhirTag],
    paths,
    components: {
      schemas: {
        ...errorSchemas,
        ...mergingSchemas,
        ...ingestionSchemas,
        ...fhirSchemas,
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
                  start_time: utcInput,
                  end_time: utcInput,
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
          required: ['id', 'type', 'version', 'checksum', 'log_id', 'start_time', 'end_time', 'utc_offset', 'offset_origin', 'user', 'source', 'metrics', 'created_at', 'deleted_at'],
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
            duplicate_of: {
              type: 'string',
              description:
                'Ingestion answers only: the posted record repeats this stored record of the same source under another log_id (same content and times); ' +
                'the entry is that stored record, and nothing was stored or emitted for the repeat.',
            },
          },
        },
      },
    },
  };
}

const api = recordsApi();
export const recordsEndpoints = declareEndpoints('records', api.paths);
export const recordsOpenApi = openApiPart(recordsEndpoints, { tags: api.tags, schemas: api.components.schemas });
