/**
 * OpenAPI part of the streams service (paths relative to /v2), merged by the gateway into
 * /v2/openapi.json and /docs.
 */
import { EVENT_TYPES, RESOURCE_TYPES } from '@wellstream/catalog';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const err = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/Error' }) });
const sse = (description: string) => ({ description, content: { 'text/event-stream': { schema: { type: 'string' } } } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const streamRef = { $ref: '#/components/schemas/Stream' };
const resourceList = { type: 'array', items: { type: 'string', enum: [...RESOURCE_TYPES] } };
const eventTypeList = { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } };

export const streamsOpenApi = {
  tags: [{ name: 'streams', description: 'Event streams (SSE) and replay' }],
  components: {
    schemas: {
      Stream: {
        type: 'object',
        required: ['id', 'name', 'group', 'members', 'start_date', 'resource_filter', 'event_type_filter', 'created_at', 'updated_at'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          group: { type: 'string', description: 'Service-side name of the stream (its consumer group).' },
          members: { type: 'integer', description: 'Clients currently connected.' },
          start_date: { type: ['string', 'null'], format: 'date' },
          resource_filter: resourceList,
          event_type_filter: eventTypeList,
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
          deleted_at: { type: 'string', format: 'date-time', description: 'Only in the delete response.' },
        },
      },
      StreamList: {
        type: 'object',
        properties: {
          streams: { type: 'array', items: streamRef },
          meta: {
            type: 'object',
            properties: { total: { type: 'integer' }, sort: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
          },
        },
      },
    },
  },
  paths: {
    '/streams': {
      post: {
        tags: ['streams'],
        summary: 'Create a stream (at most 5 per customer; filters are fixed at creation)',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string' },
              start_date: { type: 'string', format: 'date' },
              resource_filter: resourceList,
              event_type_filter: eventTypeList,
            },
          }),
        },
        responses: {
          '201': { description: 'Stream', ...json(streamRef) },
          '400': err('Malformed body'),
          '422': err('Invalid values, duplicate name, or more than 5 streams'),
        },
      },
      get: {
        tags: ['streams'],
        summary: 'List streams (most recent first)',
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string' }, description: '`name=<term>` exact or `name~<term>` case-insensitive contains' },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['-created_at', 'created_at', '-updated_at', 'updated_at'], default: '-created_at' } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
        ],
        responses: { '200': { description: 'Streams', ...json({ $ref: '#/components/schemas/StreamList' }) }, '400': err('Bad query') },
      },
    },
    '/streams/{id}': {
      get: { tags: ['streams'], summary: 'Get a stream', parameters: [idParam], responses: { '200': { description: 'Stream', ...json(streamRef) }, '404': err('Unknown stream') } },
      put: {
        tags: ['streams'],
        summary: 'Rename a stream (only `name` changes)',
        parameters: [idParam],
        requestBody: { required: true, ...json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) },
        responses: { '200': { description: 'Stream', ...json(streamRef) }, '400': err('Malformed body'), '404': err('Unknown stream'), '422': err('Empty or duplicate name') },
      },
      delete: {
        tags: ['streams'],
        summary: 'Delete a stream for good',
        parameters: [idParam],
        responses: { '200': { description: 'Stream with deleted_at', ...json(streamRef) }, '404': err('Unknown stream'), '409': err('Clients are connected') },
      },
    },
    '/streams/{id}/connect': {
      get: {
        tags: ['streams'],
        summary: 'Connect to a stream (SSE; each client is a consumer-group member, events load-balanced by user)',
        description:
          'Events: `data`, `connection`, `rule` with `id: <partition>-<offset>`, and `poke` ({ts, stream, members{count,max}}) whenever 5 s pass without another event. Resume with the `Last-Event-ID` header or `last_event_id` query parameter.',
        parameters: [
          idParam,
          { name: 'last_event_id', in: 'query', schema: { type: 'string' } },
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } },
        ],
        responses: {
          '200': sse('Event stream'),
          '400': err('Malformed Last-Event-ID'),
          '404': err('Unknown stream'),
          '422': err('Member limit reached (Retry-After)'),
          '429': err("The customer's stream-connection quota is reached (WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER; Retry-After)"),
        },
      },
    },
    '/replay': {
      get: {
        tags: ['streams'],
        summary: "Replay the customer's events of the last 30 days, then stay live (SSE; no load balancing)",
        description: 'The end of the historical part is marked by the comment `: replay caught up` followed by a `poke`. `resources` filters `data` events only.',
        parameters: [
          { name: 'date', in: 'query', schema: { type: 'string', format: 'date' }, description: 'Events whose created_at is on or after this UTC day' },
          { name: 'resources', in: 'query', schema: { type: 'string' }, description: `Comma list of ${RESOURCE_TYPES.join(', ')}` },
          { name: 'event_types', in: 'query', schema: { type: 'string' }, description: `Comma list of ${EVENT_TYPES.join(', ')}` },
        ],
        responses: {
          '200': sse('Event stream'),
          '400': err('Bad query'),
          '429': err("The customer's replay quota is reached (WELLSTREAM_REPLAY_MAX_PER_CUSTOMER; Retry-After)"),
        },
      },
    },
  },
};
