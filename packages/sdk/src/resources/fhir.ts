/**
 * The FHIR R4 read API (docs/fhir.md): answers are FHIR JSON (`application/fhir+json`), errors
 * OperationOutcome bodies carried by the SDK's typed errors.
 */
import type { RequestOptions } from '../http-client';
import type { CallParams } from '../operation-types';
import type { Caller } from './operation-caller';

type ObservationQuery = NonNullable<CallParams<'fhirSearchObservations'>['query']>;

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
  /** A Device an Observation names. */
  readDevice(orgId: string, deviceId: string, options?: RequestOptions) {
    return this.call('fhirReadDevice', { path: { org_id: orgId, device_id: deviceId } }, options);
  }
}
