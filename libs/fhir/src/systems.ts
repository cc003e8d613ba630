/**
 * The code systems and identifier systems the FHIR resources use. Wellstream's own systems live
 * under one base URL so that a receiving EHR can tell them apart from standard terminologies.
 */
export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const PROVENANCE_PARTICIPANT_TYPE = 'http://terminology.hl7.org/CodeSystem/provenance-participant-type';

const WELLSTREAM = 'https://wellstream.dev/fhir';
/** Metric types with no standard code: the catalog's own metric type names (libs/catalog METRICS). */
export const WELLSTREAM_METRIC = `${WELLSTREAM}/CodeSystem/metric-type`;
/** Observation categories the R4 category code system lacks (sleep, nutrition). */
export const WELLSTREAM_CATEGORY = `${WELLSTREAM}/CodeSystem/observation-category`;
/** Sleep stages (awake, light, deep, rem) as the record carries them. */
export const WELLSTREAM_SLEEP_STAGE = `${WELLSTREAM}/CodeSystem/sleep-stage`;
/** Workout categories (running, cycling, …) as the record carries them. */
export const WELLSTREAM_WORKOUT_CATEGORY = `${WELLSTREAM}/CodeSystem/workout-category`;
/** Source types of the source catalog (oura, withings, apple_health, …). */
export const WELLSTREAM_SOURCE = `${WELLSTREAM}/CodeSystem/source-type`;
/** A user's customer-defined uid, within the organization (the Patient identifier). */
export const uidSystem = (organizationId: string) => `${WELLSTREAM}/sid/organizations/${encodeURIComponent(organizationId)}/uid`;
/** A record's log_id at its source (the Observation identifier). */
export const logIdSystem = (sourceType: string) => `${WELLSTREAM}/sid/sources/${encodeURIComponent(sourceType)}/log-id`;
/** Wellstream's record ids (Provenance entities, Observation identifiers). */
export const RECORD_ID_SYSTEM = `${WELLSTREAM}/sid/record-id`;
/** A device's own id at its source. */
export const deviceIdSystem = (sourceType: string) => `${WELLSTREAM}/sid/sources/${encodeURIComponent(sourceType)}/device-id`;
/** How merged reads choose between sources (the policy a Provenance names). */
export const SOURCE_PRIORITY_POLICY = `${WELLSTREAM}/policy/source-priority`;
