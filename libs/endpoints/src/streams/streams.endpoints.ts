/**
 * The streams service's endpoints (paths relative to /v2), as published in /v2/openapi.json and
 * /docs: stream resources, their SSE connection and the 30-day replay. Each operation carries its
 * routing (`auth`), which is not published.
 */
import { EVENT_TYPES, MAX_STREAM_NAME_LENGTH, RESOURCE_TYPES, STREAM_SORTS as SORTS } from '@wellstream/catalog';
import { idempotent } from '../idempotency';
import { errorResponse, errorSchemas } from '@wellstream/http';
import { declareEndpoints } from '../endpoint';
import { openApiPart } from '../openapi-part';

const developer = { auth: 'developer' } as const;
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const err = errorResponse;
/** One server-sent event as a client parses it; `data` is the JSON payload (the record for `data` events). */
const sseEvent = {
  type: 'object',
  required: ['event', 'data'],
  properties: {
    event: { type: 'string', enum: ['poke', ...EVENT_TYPES] },
    data: { type: 'string', contentMediaType: 'application/json' },
    id: { type: 'string', pattern: '^\\d+-\\d+$', description: '<partition>-<offset>, usable as Last-Event-ID (not on pokes)' },
  },
};
const sse = (description: string) => ({ description, content: { 'text/event-stream': { schema: sseEvent } } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const name = {
  type: 'string',
  maxLength: MAX_STREAM_NAME_LENGTH,
  pattern: '\\S',
  description: `1–${MAX_STREAM_NAME_LENGTH} characters after trimming, unique among the customer's streams (blank, too long or taken: 422)`,
};
const streamLinks = {
  getStream: { operationId: 'getStream', parameters: { id: '$response.body#/id' } },
  renameStream: { operationId: 'renameStream', parameters: { id: '$response.body#/id' } },
  deleteStream: { operationId: 'deleteStream', parameters: { id: '$response.body#/id' } },
  connectStream: { operationId: 'connectStream', parameters: { id: '$response.body#/id' } },
};
const streamRef = { $ref: '#/components/schemas/Stream' };
const resourceList = { type: 'array', items: { type: 'string', enum: [...RESOURCE_TYPES] } };
const eventTypeList = { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } };

const streamsApi = {
  tags: [{ name: 'streams', description: 'Event streams (SSE) and replay' }],
  components: {
    schemas: {
      ...errorSchemas,
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
        required: ['streams', 'meta'],
        properties: {
          streams: { type: 'array', items: streamRef },
          meta: {
            type: 'object',
            required: ['total', 'sort', 'offset', 'limit'],
            properties: { total: { type: 'integer' }, sort: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
          },
        },
      },
    },
  },
  paths: {
    '/streams': {
      post: idempotent({
        ...developer,
        operationId: 'createStream',
        tags: ['streams'],
        summary: 'Create a stream (at most 5 per customer; filters are fixed at creation)',
        description: 'Unknown fields are ignored. Wrong JSON types are a 400; values not accepted (blank or taken name, unknown filter values, a non-calendar start_date, a sixth stream) a 422.',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            required: ['name'],
            properties: {
              name,
              start_date: { type: ['string', 'null'], pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' },
              resource_filter: { ...resourceList, type: ['array', 'null'] },
              event_type_filter: { ...eventTypeList, type: ['array', 'null'] },
            },
          }),
        },
        responses: {
          '201': { description: 'Stream', ...json(streamRef), links: streamLinks },
          '400': err(400, 'Malformed body'),
          '422': err(422, 'Invalid values, duplicate name, or more than 5 streams'),
        },
      }),
      get: {
        ...developer,
        operationId: 'listStreams',
        tags: ['streams'],
        summary: 'List streams (most recent first)',
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string', pattern: '^name[=~]' , minLength: 6 }, description: '`name=<term>` exact or `name~<term>` case-insensitive contains' },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: [...SORTS], default: '-created_at' } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
        ],
        responses: { '200': { description: 'Streams', ...json({ $ref: '#/components/schemas/StreamList' }) }, '400': err(400, 'Bad query') },
      },
    },
    '/streams/{id}': {
      get: {
        ...developer,
        operationId: 'getStream',
        tags: ['streams'],
        summary: 'Get a stream',
        parameters: [idParam],
        responses: { '200': { description: 'Stream', ...json(streamRef) }, '404': err(404, 'Unknown stream') },
      },
      put: {
        ...developer,
        operationId: 'renameStream',
        tags: ['streams'],
        summary: 'Rename a stream (only `name` changes; other fields are ignored)',
        parameters: [idParam],
        requestBody: { required: true, ...json({ type: 'object', required: ['name'], properties: { name } }) },
        responses: {
          '200': { description: 'Stream', ...json(streamRef) },
          '400': err(400, 'Malformed body'),
          '404': err(404, 'Unknown stream'),
          '422': err(422, 'Empty or duplicate name'),
        },
      },
      delete: {
        ...developer,
        operationId: 'deleteStream',
        tags: ['streams'],
        summary: 'Delete a stream for good',
        parameters: [idParam],
        responses: { '200': { description: 'Stream with deleted_at', ...json(streamRef) }, '404': err(404, 'Unknown stream'), '409': err(409, 'Clients are connected') },
      },
    },
    '/streams/{id}/connect': {
      get: {
        ...developer,
        operationId: 'connectStream',
        tags: ['streams'],
        summary: 'Connect to a stream (SSE; each client is a consumer-group member, events load-balanced by user)',
        description:
          'Events: `data`, `connection`, `rule` with `id: <partition>-<offset>`, and `poke` ({ts, stream, members{count,max}}) whenever 5 s pass without another event. Resume with the `Last-Event-ID` header or `last_event_id` query parameter: one event id, or a comma-separated list of the last id of each partition read (at most 1,024; each partition resumes after its own, so a client that stopped with events of several users in hand misses none).',
        parameters: [
          idParam,
          { name: 'last_event_id', in: 'query', schema: { type: 'string' } },
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } },
        ],
        responses: {
          '200': sse('Event stream'),
          '400': err(400, 'Malformed Last-Event-ID'),
          '404': err(404, 'Unknown stream'),
          '422': err(422, 'Member limit reached (Retry-After)'),
          '429': err(429, "The token's hourly limit, or the customer's stream-connection quota (WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER; Retry-After)"),
          '503': err(503, 'Too many clients connecting to this server at once (a reconnect storm; WELLSTREAM_STREAM_MAX_CONNECTING): retry after Retry-After, 1 to 5 s picked at random'),
        },
      },
    },
    '/streams/{id}/tail': {
      get: {
        ...developer,
        operationId: 'tailStream',
        tags: ['streams'],
        summary: "Watch a stream read-only (SSE): its events from now, without taking any from the stream's clients",
        description:
          "The stream's events, its filters applied, from now (or after `Last-Event-ID`: one id or a comma-separated list, one per partition; a resumed tail reads up to 5 minutes back and may send events of partitions not named again). " +
          "A tail joins no consumer group: every client of the stream still receives every event, the tail takes no member slot and is not counted in `members`, and commits nothing. Pokes carry `{ts, stream, tail: true}`. " +
          'A customer may hold at most WELLSTREAM_TAIL_MAX_PER_CUSTOMER tails at once (3 by default, per streams process).',
        parameters: [
          idParam,
          { name: 'last_event_id', in: 'query', schema: { type: 'string' } },
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } },
        ],
        responses: {
          '200': sse('Event stream'),
          '400': err(400, 'Malformed Last-Event-ID'),
          '404': err(404, 'Unknown stream'),
          '429': err(429, "The token's hourly limit, or the customer's tail quota (WELLSTREAM_TAIL_MAX_PER_CUSTOMER; Retry-After)"),
        },
      },
    },
    '/replay': {
      get: {
        ...developer,
        operationId: 'replay',
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
          '400': err(400, 'Bad query'),
          '429': err(429, "The token's hourly limit, or the customer's replay quota (WELLSTREAM_REPLAY_MAX_PER_CUSTOMER; Retry-After)"),
        },
      },
    },
  },
};

export const streamsEndpoints = declareEndpoints('streams', streamsApi.paths);
export const streamsOpenApi = openApiPart(streamsEndpoints, { tags: streamsApi.tags, schemas: streamsApi.components.schemas });
