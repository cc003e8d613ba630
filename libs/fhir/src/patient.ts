/**
 * A user as a FHIR Patient: nothing but the customer's uid (the interface forbids identifying
 * information in it, and Wellstream holds none), as the identifier and, encoded, as the id.
 */
import type { FhirResource } from './fhir-types';
import { patientIdOf } from './patient-id';
import { uidSystem } from './systems';

export function patientResource(user: { uid: string; organization_id: string }): FhirResource {
  return {
    resourceType: 'Patient',
    id: patientIdOf(user.uid),
    identifier: [{ use: 'usual', system: uidSystem(user.organization_id), value: user.uid }],
    active: true,
  };
}
