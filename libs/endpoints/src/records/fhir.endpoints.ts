/**
 * The FHIR R4 read API (records service; part of its declarations): a CapabilityStatement, Patient
 * read and search by identifier, Observation search, Device read, under
 * /organizations/{org_id}/fhir/. Answers, errors included, are FHIR JSON (`application/fhir+json`);
 * the resources themselves are HL7's (validated by the HL7 validator in the tests), so the schemas
 * here name only what a client dispatches on.
 */
import type { DeclaredPathItem } from '../endpoint';

const FHIR = 'application/fhir+json';
const resource = (type: string) => ({
  type: 'object',
  required: ['resourceType'],
  properties: { resourceType: { type: 'string', enum: [type] } },
  description: `A FHIR R4 ${type} (https://hl7.org/fhir/R4/${type.toLowerCase()}.html)`,
});
const fhirResponse = (description: string, type: string) => ({ description, content: { [FHIR]: { schema: { $ref: `#/components/schemas/Fhir${type}` } } } });
const outcome = (description: string, headers?: Record<string, unknown>) => ({ description, ...(headers ? { headers } : {}), content: { [FHIR]: { schema: { $ref: '#/components/schemas/FhirOperationOutcome' } } } });
const retryAfter = { 'Retry-After': { description: 'Seconds until a retry may succeed.', schema: { type: 'integer', minimum: 1 } } };

const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const developer = { auth: 'developer', organizationParam: 'org_id' } as const;

/** What every FHIR operation may answer besides its 200: all as OperationOutcome. */
const errors = (notFound?: string) => ({
  400: outcome('A bad parameter (or a path segment that is not valid percent-encoding)'),
  401: outcome('Missing or unknown token, or an organization that is not the token\'s customer\'s'),
  ...(notFound ? { 404: outcome(notFound) } : {}),
  429: outcome('Hourly rate limit of the token exceeded', retryAfter),
  503: outcome('The service is not available', retryAfter),
});

export const fhirSchemas = {
  FhirCapabilityStatement: resource('CapabilityStatement'),
  FhirBundle: resource('Bundle'),
  FhirPatient: resource('Patient'),
  FhirDevice: resource('Device'),
  FhirExportManifest: {
    type: 'object',
    required: ['transactionTime', 'request', 'requiresAccessToken', 'output', 'error'],
    properties: {
      transactionTime: { type: 'string' },
      request: { type: 'string' },
      requiresAccessToken: { type: 'boolean' },
      output: { type: 'array', items: { type: 'object', required: ['type', 'url'], properties: { type: { type: 'string' }, url: { type: 'string' }, count: { type: 'integer' } } } },
      error: { type: 'array', items: { type: 'object' } },
    },
  },
  FhirOperationOutcome: {
    type: 'object',
    required: ['resourceType', 'issue'],
    properties: {
      resourceType: { type: 'string', enum: ['OperationOutcome'] },
      issue: {
        type: 'array',
        items: { type: 'object', required: ['severity', 'code'], properties: { severity: { type: 'string' }, code: { type: 'string' }, diagnostics: { type: 'string' } } },
      },
    },
  },
};

const tags = ['FHIR'];

export const fhirPaths: Record<string, DeclaredPathItem> = {
  '/organizations/{org_id}/fhir/metadata': {
    get: {
      ...developer,
      tags,
      operationId: 'fhirCapabilities',
      summary: 'The FHIR server\'s CapabilityStatement',
      description: 'What this FHIR R4 server supports: the resource types, interactions and search parameters below.',
      parameters: [orgParam],
      responses: { 200: fhirResponse('The CapabilityStatement', 'CapabilityStatement'), ...errors() },
    },
  },
  '/organizations/{org_id}/fhir/Patient': {
    get: {
      ...developer,
      tags,
      operationId: 'fhirSearchPatients',
      summary: 'Find a Patient by its uid',
      description: 'A searchset Bundle with the organization\'s user whose uid is `identifier` (`[system|]uid`), or none. A deleted user is never found.',
      parameters: [orgParam, { name: 'identifier', in: 'query', required: true, schema: { type: 'string', minLength: 1 }, description: 'The uid, optionally `<system>|<uid>` with the system of the Patient\'s identifier' }],
      responses: { 200: fhirResponse('A searchset Bundle', 'Bundle'), ...errors() },
    },
  },
  '/organizations/{org_id}/fhir/Patient/{patient_id}': {
    get: {
      ...developer,
      tags,
      operationId: 'fhirReadPatient',
      summary: 'A Patient (a user) by id',
      description: 'The id is the user\'s uid, or its reversible encoding (docs/fhir.md) where the uid holds other characters than letters, digits and hyphens.',
      parameters: [orgParam, { name: 'patient_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      responses: { 200: fhirResponse('The Patient', 'Patient'), ...errors('Unknown (or deleted) Patient') },
    },
  },
  '/organizations/{org_id}/fhir/Observation': {
    get: {
      ...developer,
      tags,
      operationId: 'fhirSearchObservations',
      summary: "A Patient's Observations",
      description:
        'A searchset Bundle of the Patient\'s Observations (every record as FHIR, docs/fhir.md) whose local day lies in the `date` range, ' +
        'optionally only those of the `code`s and `category`s given, `_count` per page with a `next` link while more remain. ' +
        'A range is at most 31 days; without `date`, the last 7 days.',
      parameters: [
        orgParam,
        { name: 'patient', in: 'query', required: true, schema: { type: 'string', minLength: 1 }, description: 'The Patient id (`Patient/<id>` or `<id>`)' },
        {
          name: 'date',
          in: 'query',
          schema: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 2 }] },
          style: 'form',
          explode: true,
          description: '`[eq|ge|gt|le|lt]YYYY-MM-DD`, at most twice (a lower and an upper bound); days are local to the record',
        },
        { name: 'code', in: 'query', schema: { type: 'string' }, description: 'Comma list of `[system|]code` (LOINC, or Wellstream\'s metric-type system)' },
        { name: 'category', in: 'query', schema: { type: 'string' }, description: 'Comma list of `[system|]code` (vital-signs, activity, laboratory, sleep, nutrition)' },
        { name: '_count', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 }, description: 'Observations per page (default 100)' },
        { name: '_page', in: 'query', schema: { type: 'string' }, description: 'The position a `next` link carries; not to be written by hand' },
      ],
      responses: { 200: fhirResponse('A searchset Bundle', 'Bundle'), ...errors('Unknown (or deleted) Patient') },
    },
  },
  '/organizations/{org_id}/fhir/Device/{device_id}': {
    get: {
      ...developer,
      tags,
      operationId: 'fhirReadDevice',
      summary: 'A Device by id',
      description: 'A Device an Observation names (`Observation.device`): one per user, source and device, found among the user\'s records of the organization\'s history.',
      parameters: [orgParam, { name: 'device_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      responses: { 200: fhirResponse('The Device', 'Device'), ...errors('Unknown Device') },
    },
  },
};

const exportParams = [
  { name: 'Prefer', in: 'header', required: true, schema: { type: 'string' }, description: '`respond-async`, as the Bulk Data specification requires' },
  { name: '_since', in: 'query', schema: { type: 'string' }, description: 'Only resources of records stored at or after this instant (`YYYY-MM-DDThh:mm:ss[.sss](Z|±hh:mm)`)' },
  { name: '_type', in: 'query', schema: { type: 'string' }, description: 'Comma list of Patient, Observation, Device (default all three)' },
  { name: '_outputFormat', in: 'query', schema: { type: 'string', enum: ['application/fhir+ndjson', 'application/ndjson', 'ndjson'] } },
];
const kickOff = (operationId: string, summary: string, extra: unknown[] = []) => ({
  ...developer,
  tags,
  operationId,
  summary,
  description:
    "Starts an asynchronous export (HL7 FHIR Bulk Data Access) of the organization's users (Patient), their Observations and Devices within the organization's history, as NDJSON files per resource type. " +
    'Answers 202 with `Content-Location`: poll it (GET) for the manifest, cancel with DELETE. The work is paced so other requests go first.',
  parameters: [orgParam, ...extra, ...exportParams],
  responses: {
    202: { description: 'Accepted; the status URL is in Content-Location', headers: { 'Content-Location': { description: 'The status URL', schema: { type: 'string' } } }, content: { [FHIR]: { schema: { $ref: '#/components/schemas/FhirOperationOutcome' } } } },
    ...errors('Unknown Group'),
  },
});
const jobParam = { name: 'job_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };

export const fhirExportPaths: Record<string, DeclaredPathItem> = {
  '/organizations/{org_id}/fhir/Patient/$export': { get: kickOff('fhirExportPatients', "Bulk export of every Patient's data") },
  '/organizations/{org_id}/fhir/Group/{group_id}/$export': {
    get: kickOff('fhirExportGroup', "Bulk export of the organization's Group (its id is the organization's)", [{ name: 'group_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }]),
  },
  '/organizations/{org_id}/fhir/$export-status/{job_id}': {
    get: {
      ...developer,
      tags,
      operationId: 'fhirExportStatus',
      summary: 'An export: 202 while it runs, then its manifest',
      parameters: [orgParam, jobParam],
      responses: {
        200: {
          description: 'The manifest: one signed, short-lived link per NDJSON file (`requiresAccessToken` false)',
          headers: { Expires: { description: 'When the links stop working', schema: { type: 'string' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/FhirExportManifest' } } },
        },
        202: { description: 'Still running', headers: { 'X-Progress': { description: 'How far it got', schema: { type: 'string' } }, 'Retry-After': retryAfter['Retry-After'] } },
        ...errors('Unknown, cancelled or expired export'),
      },
    },
    delete: {
      ...developer,
      tags,
      operationId: 'fhirExportCancel',
      summary: 'Cancel an export (or delete a finished one and its files)',
      parameters: [orgParam, jobParam],
      responses: { 202: { description: 'Cancelled', content: { [FHIR]: { schema: { $ref: '#/components/schemas/FhirOperationOutcome' } } } }, ...errors('Unknown or already cancelled export') },
    },
  },
  // Outside the organization's paths: a signed link is its own credential (no token, no organization check).
  '/fhir-exports/{job_id}/{file}': {
    get: {
      auth: 'public',
      tags,
      operationId: 'fhirExportFile',
      summary: "An export's NDJSON file, through its signed link (no token)",
      security: [],
      parameters: [
        jobParam,
        { name: 'file', in: 'path', required: true, schema: { type: 'string', enum: ['Patient', 'Observation', 'Device'] } },
        { name: 'expires', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'signature', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: {
        200: { description: 'One FHIR resource per line', content: { 'application/fhir+ndjson': { schema: { type: 'string' } } } },
        400: outcome('A path segment that is not valid percent-encoding'),
        401: outcome('The signature does not hold'),
        404: outcome('Unknown export or file'),
        410: outcome('The link expired: read the manifest again for fresh links'),
        503: outcome('The service is not available', retryAfter),
      },
    },
  },
};

export const fhirTag = { name: 'FHIR', description: 'Records as FHIR R4: Patient, Observation, Device (docs/fhir.md)' };
