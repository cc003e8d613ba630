/**
 * Bulk Data export (HL7 FHIR Bulk Data Access, the asynchronous pattern): kick-off (`Patient/$export`,
 * `Group/:org/$export`), status and manifest, cancellation, and the files behind signed links. An
 * export covers the calling customer's organization only; it is audited (action `fhir.export`).
 */
import { randomUUID } from 'node:crypto';
import { auditEntry, auditLogTopic } from '@wellstream/contracts';
import type { Clock } from '@wellstream/clock';
import { AppError, badRequest, gone, notFound, unauthenticated } from '@wellstream/errors';
import type { Outbox } from '@wellstream/outbox';
import type { FhirCaller } from '../fhir-read.usecase';
import { EXPORT_JOBS_SPEC, EXPORT_TYPES, type ExportJob, type ExportJobRepository, type ExportType } from './export-job.repository';
import { checkExportFileLink, EXPORT_LINK_TTL_MS, exportFileLink } from './export-link';
import type { ExportWorker } from './export-worker';

export interface ExportDeps {
  jobs: ExportJobRepository;
  worker: Pick<ExportWorker, 'owner' | 'leaseUntil' | 'run'>;
  clock: Clock;
  outbox: Outbox;
  linkKey: string;
}

const bad = (param: string, message: string) => badRequest('INVALID_FHIR_EXPORT', { [param]: [message] });
const ALLOWED = new Set(['_since', '_type', '_outputFormat', 'token']);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export interface KickOff {
  query: Record<string, unknown>;
  prefer: string | undefined;
  /** The group id of `Group/:id/$export`; undefined for `Patient/$export`. */
  group?: string;
  request: string;
}

/** Date.parse takes 2026-02-30 for 2026-03-02; a calendar day must survive the round trip. */
const isCalendarDay = (day: string) => new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;

function parse(k: KickOff, organizationId: string): { since: string | null; types: ExportType[] } {
  if (k.group !== undefined && k.group !== organizationId) throw notFound('GROUP_NOT_FOUND', `No Group ${k.group}: the organization's Group has the organization's id.`);
  if (!/\brespond-async\b/.test(k.prefer ?? '')) throw bad('Prefer', 'a Bulk Data kick-off needs the header Prefer: respond-async');
  const unknown = Object.keys(k.query).filter((p) => !ALLOWED.has(p));
  if (unknown.length) throw bad(unknown[0], `unsupported parameter ${unknown[0]} (supported: _since, _type, _outputFormat)`);
  for (const p of Object.keys(k.query)) if (typeof k.query[p] !== 'string') throw bad(p, `${p} must be given once`);
  const sinceText = k.query._since as string | undefined;
  if (sinceText !== undefined && (!INSTANT.test(sinceText) || Number.isNaN(Date.parse(sinceText)) || !isCalendarDay(sinceText.slice(0, 10)))) throw bad('_since', '_since must be an instant, e.g. 2026-03-01T00:00:00Z');
  const format = k.query._outputFormat as string | undefined;
  if (format !== undefined && !['application/fhir+ndjson', 'application/ndjson', 'ndjson'].includes(format)) throw bad('_outputFormat', 'only NDJSON is produced');
  const typeText = k.query._type as string | undefined;
  const types = typeText === undefined ? [...EXPORT_TYPES] : [...new Set(typeText.split(',').map((t) => t.trim()))];
  const wrong = types.filter((t) => !(EXPORT_TYPES as readonly string[]).includes(t));
  if (wrong.length || !types.length) throw bad('_type', `_type is a comma list of ${EXPORT_TYPES.join(', ')}`);
  return { since: sinceText === undefined ? null : new Date(sinceText).toISOString(), types: types as ExportType[] };
}

/** Starts an export and answers its status URL; the work runs in this process, paced, under a lease. */
export async function kickOffExport(deps: ExportDeps, caller: FhirCaller, k: KickOff): Promise<string> {
  const { since, types } = parse(k, caller.organizationId);
  const now = deps.clock.now();
  const job: ExportJob = {
    _id: `fx_${randomUUID()}`,
    organization_id: caller.organizationId,
    customer_id: caller.customerId,
    status: 'in-progress',
    request: k.request,
    since,
    types,
    started_at: now.toISOString(),
    completed_at: null,
    attempt: 1,
    lease_owner: deps.worker.owner,
    lease_until: deps.worker.leaseUntil(),
    users_done: 0,
    users_total: 0,
    output: [],
  };
  const entry = auditEntry({
    at: job.started_at,
    actor: `customer:${caller.customerId}`,
    action: 'fhir.export',
    customer_id: caller.customerId,
    organization_id: caller.organizationId,
    uid: null,
    user_id: null,
    service: 'records',
    details: { export_id: job._id, types, since },
  });
  await deps.outbox.write([deps.outbox.message(auditLogTopic, entry, { collection: EXPORT_JOBS_SPEC.name, filter: { _id: job._id } })], () => deps.jobs.insert(job));
  deps.worker.run(job);
  return `${caller.baseUrl}/$export-status/${job._id}`;
}

async function jobOf(deps: ExportDeps, caller: FhirCaller, jobId: string): Promise<ExportJob> {
  const job = await deps.jobs.byId(jobId);
  if (!job || job.organization_id !== caller.organizationId || job.customer_id !== caller.customerId || job.status === 'cancelled') {
    throw notFound('EXPORT_NOT_FOUND', `No export ${jobId} in this organization.`);
  }
  return job;
}

export type ExportStatus = { state: 'running'; progress: string } | { state: 'done'; manifest: object; expires: string };

export async function exportStatus(deps: ExportDeps, caller: FhirCaller, jobId: string): Promise<ExportStatus> {
  const job = await jobOf(deps, caller, jobId);
  if (job.status === 'failed') throw new AppError('internal', 'EXPORT_FAILED', `Export ${jobId} failed; start another.`);
  if (job.status === 'in-progress') return { state: 'running', progress: `${job.users_done} of ${job.users_total} users` };
  const expiresAt = deps.clock.now().getTime() + EXPORT_LINK_TTL_MS;
  return {
    state: 'done',
    expires: new Date(expiresAt).toUTCString(),
    manifest: {
      transactionTime: job.started_at,
      request: job.request,
      requiresAccessToken: false,
      output: job.output.filter((o) => o.count > 0).map((o) => ({ type: o.type, url: exportFileLink(new URL(caller.baseUrl).origin, deps.linkKey, job._id, o.type, expiresAt), count: o.count })),
      error: [],
    },
  };
}

export async function cancelExport(deps: ExportDeps, caller: FhirCaller, jobId: string): Promise<void> {
  await jobOf(deps, caller, jobId);
  await deps.jobs.cancel(jobId, deps.clock.now().toISOString());
}

/** A file's parts, once its link holds. */
export async function exportFile(deps: ExportDeps, jobId: string, file: string, expires: unknown, signature: unknown): Promise<AsyncIterable<{ ndjson: string }[]>> {
  if (!(EXPORT_TYPES as readonly string[]).includes(file)) throw notFound('EXPORT_FILE_NOT_FOUND', `No file ${file}.`);
  const check = checkExportFileLink(deps.linkKey, jobId, file, expires, signature, deps.clock.now().getTime());
  if (check === 'invalid') throw unauthenticated('INVALID_EXPORT_LINK', 'The link is not valid.');
  if (check === 'expired') throw gone('EXPORT_LINK_EXPIRED', 'The link expired: read the export status again for fresh links.');
  const job = await deps.jobs.byId(jobId);
  if (!job || job.status !== 'completed') throw notFound('EXPORT_NOT_FOUND', `No export ${jobId}.`);
  return deps.jobs.partsOf(job, file as ExportType);
}
