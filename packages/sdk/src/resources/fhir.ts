/**
 * The FHIR R4 read API (docs/fhir.md): answers are FHIR JSON (`application/fhir+json`), errors
 * OperationOutcome bodies carried by the SDK's typed errors.
 */
import type { RequestOptions } from '../http-client';
import type { CallParams } from '../operation-types';
import type { Caller } from './operation-caller';
import { everyBundlePage } from './paging';

type ObservationQuery = NonNullable<CallParams<'fhirSearchObservations'>['query']>;
type ExportQuery = Omit<NonNullable<CallParams<'fhirExportPatients'>['query']>, never>;

/** A started Bulk Data export: poll `exportStatus(orgId, jobId)`. */
export interface StartedExport {
  jobId: string;
  statusUrl: string;
}

export class Fhir {
  constructor(private readonly call: Caller) {}

  /** The server's CapabilityStatement. */
  capabilities(orgId: string, options?: RequestOptions) {
    return this.call('fhirCapabilities', { path: { org_id: orgId } }, options);
  }
  /** A Patient by id: the uid, or its reversible encoding where the uid holds other characters. */
  readPatient(orgId: string, patientId: string, options?: RequestOptions) {
    return this.call('fhirReadPatient', { path: { org_id: orgId, patient_id: patientId } }, options);
  }
  /** A searchset Bundle with the Patient whose uid is `identifier` (`[system|]uid`), or none. */
  searchPatients(orgId: string, identifier: string, options?: RequestOptions) {
    return this.call('fhirSearchPatients', { path: { org_id: orgId }, query: { identifier } }, options);
  }
  /** A searchset Bundle of a Patient's Observations (patient, date, code, category, _count; follow `next` links with `_page`). */
  searchObservations(orgId: string, query: ObservationQuery, options?: RequestOptions) {
    return this.call('fhirSearchObservations', { path: { org_id: orgId }, query }, options);
  }
  /** Every Observation the search finds, following the searchset's `next` links (`_count` is the page size). */
  searchAllObservations(orgId: string, query: Omit<ObservationQuery, '_page'>, options?: RequestOptions): AsyncGenerator<Record<string, unknown>> {
    return everyBundlePage((page) => this.searchObservations(orgId, { ...query, ...(page === undefined ? {} : { _page: page }) }, options) as never);
  }
  /** Starts a Bulk Data export of every Patient's data (`Patient/$export`; `_since`, `_type`). */
  async exportPatients(orgId: string, query?: ExportQuery, options?: RequestOptions): Promise<StartedExport> {
    const r = await this.call('fhirExportPatients', { path: { org_id: orgId }, query }, { ...options, headers: { ...options?.headers, prefer: 'respond-async' } });
    return started(r.$response.headers.get('content-location'));
  }
  /** Starts a Bulk Data export of the organization's Group (`Group/:org/$export`). */
  async exportGroup(orgId: string, query?: ExportQuery, options?: RequestOptions): Promise<StartedExport> {
    const r = await this.call('fhirExportGroup', { path: { org_id: orgId, group_id: orgId }, query }, { ...options, headers: { ...options?.headers, prefer: 'respond-async' } });
    return started(r.$response.headers.get('content-location'));
  }
  /** The export's manifest once done (files behind signed links, no token); null while it runs. */
  async exportStatus(orgId: string, jobId: string, options?: RequestOptions) {
    const r = await this.call('fhirExportStatus', { path: { org_id: orgId, job_id: jobId } }, options);
    return typeof r === 'object' && r !== null ? r : null;
  }
  /** Cancels an export (or deletes a finished one and its files). */
  cancelExport(orgId: string, jobId: string, options?: RequestOptions) {
    return this.call('fhirExportCancel', { path: { org_id: orgId, job_id: jobId } }, options);
  }
  /** A Device an Observation names. */
  readDevice(orgId: string, deviceId: string, options?: RequestOptions) {
    return this.call('fhirReadDevice', { path: { org_id: orgId, device_id: deviceId } }, options);
  }
}

function started(statusUrl: string | null): StartedExport {
  if (!statusUrl) throw new Error('the export was accepted without a Content-Location');
  return { statusUrl, jobId: decodeURIComponent(statusUrl.slice(statusUrl.lastIndexOf('/') + 1)) };
}
