/**
 * The operator's ingestion counts (records service; part of its declarations).
 */
import { errorResponse, jsonResponse } from '@wellstream/http';
import type { DeclaredPathItem } from '../endpoint';

const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' };
const count = { type: 'integer', minimum: 0 };

export const ingestionSchemas = {
  IngestionCounts: {
    type: 'object',
    required: ['organization_id', 'start_date', 'end_date', 'total', 'data'],
    additionalProperties: false,
    properties: {
      organization_id: { type: 'string' },
      start_date: date,
      end_date: date,
      total: { ...count, description: 'Records stored over the whole range.' },
      data: {
        type: 'array',
        description: 'One entry per UTC day of the range, oldest first; 0 where nothing was stored.',
        items: {
          type: 'object',
          required: ['date', 'records', 'created', 'updated', 'deleted'],
          additionalProperties: false,
          properties: {
            date,
            records: { ...count, description: 'Record versions stored that day (created + updated + deleted); identical re-posts store nothing and are not counted.' },
            created: { ...count, description: 'Records stored for the first time.' },
            updated: { ...count, description: 'New versions of stored records.' },
            deleted: { ...count, description: 'Deletions.' },
          },
        },
      },
    },
  },
};

export const ingestionPaths: Record<string, DeclaredPathItem> = {
  '/admin/organizations/{org_id}/ingestion': {
    parameters: [{ name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
    get: {
      auth: 'admin',
      operationId: 'adminGetIngestion',
      tags: ['operator'],
      summary: 'Records ingested by an organization per day (operator token)',
      description:
        'Counted by the records service as records are stored (mobile posts, provider sources, the demo source), per UTC day of storage. ' +
        "Another replica's latest counts may take up to WELLSTREAM_INGESTION_COUNT_FLUSH_MS to appear.",
      parameters: [
        { name: 'start_date', in: 'query', required: false, schema: date, description: 'First day (default: 29 days before end_date).' },
        { name: 'end_date', in: 'query', required: false, schema: date, description: 'Last day, included (default: today, UTC). At most 92 days in all.' },
      ],
      responses: {
        200: jsonResponse('Counts per day', { $ref: '#/components/schemas/IngestionCounts' }),
        400: errorResponse(400, 'A date not formatted YYYY-MM-DD or not in the calendar, start after end, or more than 92 days, keyed by the field.', ['FieldErrors']),
        404: errorResponse(404, 'Unknown organization.'),
      },
    },
  },
};
