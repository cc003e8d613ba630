/**
 * The records service's OpenAPI for merging and availability: the organization's source priority
 * (customer and operator), the merged record shapes of `merged=true`, and a user's data
 * availability. Part of the records declarations.
 */
import { METRIC_TYPES, RESOURCE_TYPES, SOURCE_TYPES } from '@wellstream/catalog';
import { errorResponse, jsonResponse } from '@wellstream/http';
import type { DeclaredPathItem } from '../endpoint';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const uidParam = { name: 'uid', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const order = { type: 'array', maxItems: 100, items: { type: 'string', enum: SOURCE_TYPES } };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };

const provenance = {
  type: 'object',
  required: ['source', 'record_id', 'log_id', 'start_time', 'end_time'],
  properties: {
    source: { type: 'string', description: 'The source type of the record' },
    record_id: { type: 'string', description: 'The stored record (its id in a plain read)' },
    log_id: { type: 'string' },
    start_time: { type: 'string' },
    end_time: { type: 'string' },
    value: { type: 'number', description: 'metric provenance: the value this record gave' },
    metric: { type: 'string', description: 'intraday duplicates: the metric type whose samples were covered' },
  },
};

const priorityBody = {
  type: 'object',
  properties: {
    default: { ...order, description: 'One order for every resource and metric not named below (best first)' },
    resources: { type: 'object', description: `Resource type (${RESOURCE_TYPES.join(', ')}) → order`, additionalProperties: order },
    metrics: { type: 'object', description: 'Metric type (the metric catalog) → order; wins over the resource\'s order', additionalProperties: order },
  },
};

export const mergingSchemas = {
  SourcePriorityInput: {
    ...priorityBody,
    description:
      'Replaces the whole setting ({} = the default). A list may name only some sources: the others follow in the order of the next, less specific list ' +
      '(metric → resource → default → the platform\'s default: devices, then apps, then phone aggregators, then demo). ' +
      `422 for an unknown source, resource or metric (e.g. {"errors":{"metrics.stepz":["unknown metric type: stepz"]}}) or a source listed twice. Known metrics: ${METRIC_TYPES.length} (the metric catalog).`,
  },
  SourcePriority: {
    type: 'object',
    required: ['organization_id', 'default', 'resources', 'metrics', 'effective', 'updated_at'],
    properties: {
      organization_id: { type: 'string' },
      ...priorityBody.properties,
      effective: { type: 'object', description: 'The full order each resource type ends up with (metric lists apply on top of it, per metric)', additionalProperties: order },
      updated_at: { ...nullableTime, description: 'null while the organization uses the default' },
    },
  },
  MergedRecord: {
    type: 'object',
    description:
      'merged=true on summaries (one per local day) and sleep (one per night: the local date 12 h before the local start). Each metric is chosen on its own by the ' +
      "organization's source priority: candidates whose intervals overlap are decided by priority (a tie — the same source — goes to origin device over unknown over manual, " +
      'then the longer interval, then the record processed last, then the smaller id); additive metrics (steps, distances, energies, durations, counts) add up candidates that do ' +
      'not overlap. `provenance` names the records each value came from. Rules in docs/merging.md.',
    required: ['id', 'type', 'version', 'merged', 'local_date', 'start_time', 'end_time', 'utc_offset', 'user', 'sources', 'metrics', 'provenance'],
    properties: {
      id: { type: 'string', description: 'Stable for (user, type, day)' },
      type: { type: 'string', enum: ['summary', 'sleep'] },
      version: { type: 'string' },
      merged: { type: 'boolean', const: true },
      local_date: { type: 'string', format: 'date', description: 'The local day (summary) or night (sleep)' },
      start_time: { type: 'string' },
      end_time: { type: 'string' },
      utc_offset: { type: 'integer' },
      user: { type: 'object', properties: { uid: { type: 'string' }, user_id: { type: 'string' }, organization_id: { type: 'string' } } },
      sources: { type: 'array', items: { type: 'string' }, description: 'Sources that contributed' },
      category: { type: 'string', description: 'summary: daily' },
      stages: { type: 'array', items: { type: 'object' }, description: 'sleep: the stages of the records chosen for the night' },
      metrics: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'unit', 'value', 'origin', 'provenance'],
          properties: {
            type: { type: 'string' },
            unit: { type: 'string' },
            value: { type: 'number' },
            origin: { type: 'string', enum: ['device', 'manual', 'unknown'] },
            provenance: { type: 'array', items: provenance },
          },
        },
      },
      provenance: { type: 'array', items: provenance, description: 'Every record that contributed' },
    },
  },
  KeptRecord: {
    description:
      'merged=true on workouts, measurements, nutrition and intraday: a stored record kept by the merge, with `duplicates` naming what it won over. Records of different ' +
      'sources that overlap in time (measurements: also sharing a metric type; points in time within 5 minutes) are one event told twice: the best-ranked is kept. ' +
      "Intraday: per metric type, samples where a better-ranked source's series covers the time are left out.",
    allOf: [
      ref('Record'),
      {
        type: 'object',
        required: ['merged', 'duplicates'],
        properties: { merged: { type: 'boolean', const: true }, duplicates: { type: 'array', items: provenance } },
      },
    ],
  },
  Availability: {
    type: 'object',
    required: ['user', 'sources'],
    properties: {
      user: { type: 'object', required: ['uid', 'user_id'], properties: { uid: { type: 'string' }, user_id: { type: 'string' } } },
      sources: {
        type: 'array',
        description: 'Every source the user has connected, was connected to, or holds data of',
        items: {
          type: 'object',
          required: ['type', 'name', 'kind', 'connected', 'status', 'connected_at', 'last_synced_at', 'backfill', 'reason', 'resources'],
          properties: {
            type: { type: 'string' },
            name: { type: 'string' },
            kind: { type: 'string', enum: ['cloud', 'mobile', 'demo'] },
            connected: { type: 'boolean' },
            status: { type: ['string', 'null'], enum: ['active', 'auth_expired', 'error', 'disconnected', null] },
            connected_at: nullableTime,
            last_synced_at: { ...nullableTime, description: 'Provider sources: the last successful sync; sources that post (phone apps, demo): when new data last arrived' },
            backfill: {
              type: ['object', 'null'],
              description: 'Provider sources: the first fetch of history (all resources together)',
              properties: { state: { type: 'string', enum: ['running', 'done'] }, progress: { type: 'number' }, start: { type: 'string' }, end: { type: 'string' } },
            },
            reason: { type: ['string', 'null'], description: 'Why it is disconnected or failing, in words' },
            resources: {
              type: 'array',
              items: {
                type: 'object',
                required: ['resource', 'expected', 'first_time', 'last_time', 'records', 'last_received_at', 'backfill'],
                properties: {
                  resource: { type: 'string', enum: [...RESOURCE_TYPES] },
                  expected: { type: 'boolean', description: 'The catalog lists this resource for the source (false: data arrived all the same)' },
                  first_time: { ...nullableTime, description: 'Earliest start_time held (deletions do not narrow it)' },
                  last_time: { ...nullableTime, description: 'Latest end_time held' },
                  records: { type: 'integer', minimum: 0, description: 'Live records held' },
                  last_received_at: nullableTime,
                  backfill: {
                    type: ['object', 'null'],
                    properties: { state: { type: 'string', enum: ['running', 'done'] }, start: { type: ['string', 'null'] }, end: { type: ['string', 'null'] } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;
const admin = { auth: 'admin' } as const;

const priorityOps = (operator: boolean): DeclaredPathItem => {
  const tag = operator ? 'operator' : 'Records';
  const who = operator ? ' (operator token)' : '';
  const notFound = operator ? { 404: errorResponse(404, 'Unknown organization') } : {};
  return {
    parameters: [orgParam],
    get: {
      ...(operator ? admin : developer),
      operationId: operator ? 'adminGetSourcePriority' : 'getSourcePriority',
      tags: [tag],
      summary: `The organization's source priority${who}`,
      responses: { 200: jsonResponse('The setting and the orders in force', ref('SourcePriority')), ...notFound },
    },
    put: {
      ...(operator ? admin : developer),
      operationId: operator ? 'adminPutSourcePriority' : 'putSourcePriority',
      tags: [tag],
      summary: `Replace the organization's source priority${who}`,
      description: 'Used by merged=true reads of the record endpoints. The answer shows the effective orders.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('SourcePriorityInput') } } },
      responses: {
        200: jsonResponse('The stored setting', ref('SourcePriority')),
        400: errorResponse(400, 'Not the documented shape, e.g. {"errors":{"default":["…"]}}'),
        ...notFound,
        422: errorResponse(422, 'An unknown source, resource or metric, or a source listed twice, keyed by its field'),
      },
    },
  };
};

export const mergingPaths: Record<string, DeclaredPathItem> = {
  '/organizations/{org_id}/source_priority': priorityOps(false),
  '/admin/organizations/{org_id}/source_priority': priorityOps(true),
  '/organizations/{org_id}/users/{uid}/availability': {
    get: {
      ...developer,
      operationId: 'getAvailability',
      tags: ['Records'],
      summary: "A user's data availability per source and resource",
      description:
        'For each source the user has connected (or holds data of) and each resource: the first and last record time held, the number of records, when data last arrived, ' +
        'whether the catalog expects the source to deliver that resource, and for provider sources the connection status, last successful sync and backfill.',
      parameters: [orgParam, uidParam],
      responses: { 200: jsonResponse('Availability', ref('Availability')), 404: errorResponse(404, 'Unknown user') },
    },
  },
};
