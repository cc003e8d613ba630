/**
 * The data lifecycle's endpoints (users service): special-request exports with their signed
 * download link, erasure, and the audit log. Part of the users declarations.
 */
import { AUDIT_ACTIONS, USER_DATA_SERVICES } from '@wellstream/contracts';
import { idempotent } from '../idempotency';
import { errorResponse, jsonResponse, schemaRef } from '@wellstream/http';
import type { DeclaredPathItem } from '../endpoint';

const admin = { auth: 'admin' } as const;
// The signed, short-lived link is the credential (no token, no rate limit).
const open = { auth: 'public' } as const;

const ref = schemaRef;
const time = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'Organization id.' };
const uidParam = { name: 'uid', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'The customer-defined user id.' };
const exportParam = { name: 'export_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'The export id.' };
const unknownUser = errorResponse(404, 'No user with this uid in this organization (any status), or an unknown organization.');

export const lifecycleTags = [{ name: 'Data lifecycle', description: "The operator's special requests on one user's data: exports, erasure, the audit log (operator token)." }];

export const lifecyclePaths: Record<string, DeclaredPathItem> = {
  '/admin/organizations/{org_id}/users/{uid}/exports': {
    parameters: [orgParam, uidParam],
    post: idempotent({
      ...admin,
      operationId: 'requestUserExport',
      tags: ['Data lifecycle'],
      summary: "Start an export of everything the platform holds about a user (active, suspended or deleted)",
      description:
        'Every service holding user data sends its share (records with their versions, connections and their history, rules, push items). GET the export for its progress; once `ready` it carries a short-lived signed `download_url` of an NDJSON file. Audited.',
      responses: {
        202: { ...jsonResponse('The export job, running.', ref('UserExport')), links: { getUserExport: { operationId: 'getUserExport', parameters: { org_id: '$request.path.org_id', uid: '$request.path.uid', export_id: '$response.body#/id' } } } },
        404: unknownUser,
      },
    }, { pathParameters: true }),
  },
  '/admin/organizations/{org_id}/users/{uid}/exports/{export_id}': {
    parameters: [orgParam, uidParam, exportParam],
    get: {
      ...admin,
      operationId: 'getUserExport',
      tags: ['Data lifecycle'],
      summary: "An export's progress; once ready, a fresh signed download link",
      responses: { 200: jsonResponse('The export job.', ref('UserExport')), 404: errorResponse(404, 'No such export of this user.') },
    },
  },
  '/admin/organizations/{org_id}/users/{uid}/erasure': {
    parameters: [orgParam, uidParam],
    post: {
      ...admin,
      operationId: 'eraseUser',
      tags: ['Data lifecycle'],
      summary: "Erase a user's data everywhere now (GDPR art. 17)",
      description:
        "Removes the user and every copy of their data: each service's store and projections, the event log (embedded: the rows; Kafka: tombstones), the push queue and exports. Idempotent: a user erased before answers 200 with `already_erased: true`. Audited.",
      responses: { 200: jsonResponse('The user is erased (or was already).', ref('UserErasure')), 404: unknownUser },
    },
  },
  '/admin/audit_log': {
    get: {
      ...admin,
      operationId: 'listAuditLog',
      tags: ['Data lifecycle'],
      summary: 'The audit log: exports, erasures, retention sweeps and FHIR reads, newest first',
      parameters: [
        { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 } },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
        { name: 'customer_id', in: 'query', schema: { type: 'string', minLength: 1, maxLength: 200 }, description: "Only this customer's entries." },
        { name: 'action', in: 'query', schema: { type: 'string', enum: AUDIT_ACTIONS }, description: 'Only entries of this action.' },
      ],
      responses: {
        200: jsonResponse('One page of entries.', {
          type: 'object',
          required: ['data', 'meta'],
          properties: {
            data: { type: 'array', items: ref('AuditEntry') },
            meta: {
              type: 'object',
              required: ['offset', 'limit', 'total'],
              properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' }, customer_id: { type: 'string' }, action: { type: 'string' } },
            },
          },
        }),
        400: errorResponse(400, 'Invalid paging or filter ({"errors":{field:[…]}}).'),
      },
    },
  },
  '/exports/{export_id}/download': {
    parameters: [exportParam],
    get: {
      ...open,
      operationId: 'downloadUserExport',
      tags: ['Data lifecycle'],
      summary: "An export's NDJSON file, through its signed link (no token)",
      description:
        'One JSON object per line: `{"type":<kind>,"service":<service>,"data":{…}}` (kinds: user, connected_source, record, rule, push_item, connection, disconnection), then a last `manifest` line with the counts per kind, items per service, and the byte size and sha256 of every line before it.',
      security: [],
      parameters: [
        { name: 'expires', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9]{1,12}$' }, description: 'Unix seconds (from the link).' },
        { name: 'signature', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{64}$' }, description: 'From the link.' },
      ],
      responses: {
        200: { description: 'The file.', content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
        401: errorResponse(401, 'Not a link the platform handed out (altered or forged).', ['Message']),
        404: errorResponse(404, 'The export is gone (its user was erased).'),
        410: errorResponse(410, 'The link is past its lifetime: GET the export again for a new one.', ['ErrorList']),
      },
    },
  },
};

const partSchema = { type: 'object', required: ['done', 'items'], properties: { done: { type: 'boolean' }, items: { type: 'integer', minimum: 0 } } };

export const lifecycleSchemas = {
  UserExport: {
    type: 'object',
    required: ['id', 'uid', 'organization_id', 'user_status', 'status', 'progress', 'requested_at', 'completed_at', 'size_bytes', 'sha256', 'counts', 'download_url', 'download_expires_at'],
    properties: {
      id: { type: 'string' },
      uid: { type: 'string' },
      organization_id: { type: 'string' },
      user_status: { type: 'string', enum: ['active', 'suspended', 'deleted'], description: 'The user\'s status when the export was asked for.' },
      status: { type: 'string', enum: ['running', 'ready'] },
      progress: {
        type: 'object',
        required: ['services_done', 'services_total', 'parts'],
        properties: {
          services_done: { type: 'integer', minimum: 0 },
          services_total: { type: 'integer', minimum: 1 },
          parts: { type: 'object', required: [...USER_DATA_SERVICES], properties: Object.fromEntries(USER_DATA_SERVICES.map((s) => [s, partSchema])) },
        },
      },
      requested_at: time,
      completed_at: nullableTime,
      size_bytes: { type: ['integer', 'null'], minimum: 0, description: 'Bytes before the manifest line.' },
      sha256: { type: ['string', 'null'], description: 'sha256 (hex) of every line before the manifest line.' },
      counts: { type: ['object', 'null'], additionalProperties: { type: 'integer' }, description: 'Items per kind.' },
      download_url: { type: ['string', 'null'], format: 'uri', description: 'Once ready: the signed link (WELLSTREAM_EXPORT_LINK_TTL_S, default 15 minutes); a new one on every GET.' },
      download_expires_at: nullableTime,
    },
  },
  UserErasure: {
    type: 'object',
    required: ['uid', 'organization_id', 'status', 'already_erased', 'erased_at'],
    properties: {
      uid: { type: 'string' },
      organization_id: { type: 'string' },
      status: { type: 'string', enum: ['erased'] },
      already_erased: { type: 'boolean', description: 'true: erased before, nothing left to do.' },
      erased_at: time,
    },
  },
  AuditEntry: {
    type: 'object',
    required: ['id', 'at', 'actor', 'action', 'customer_id', 'organization_id', 'uid', 'user_id', 'service', 'details'],
    properties: {
      id: { type: 'string' },
      at: time,
      actor: { type: 'string', description: '`operator` (the admin token) or `system:retention`.' },
      action: { type: 'string', enum: AUDIT_ACTIONS },
      customer_id: { type: 'string' },
      organization_id: { type: ['string', 'null'] },
      uid: { type: ['string', 'null'], description: 'null once the user is erased.' },
      user_id: { type: ['string', 'null'] },
      service: { type: 'string', description: 'The service that did it.' },
      details: { type: 'object', description: 'Counts, sizes and ids; never the data itself.' },
    },
  },
};
