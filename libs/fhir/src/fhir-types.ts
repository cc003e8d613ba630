/**
 * The few FHIR R4 data types the mapping writes, typed loosely: resources are plain JSON, and the
 * HL7 validator (in the tests) is what proves their shape.
 */
export interface Coding {
  system: string;
  code: string;
  display?: string;
}
export interface CodeableConcept {
  coding?: Coding[];
  text?: string;
}
export interface Reference {
  reference?: string;
  identifier?: Identifier;
  display?: string;
}
export interface Identifier {
  system: string;
  value: string;
  use?: 'usual' | 'official' | 'temp' | 'secondary' | 'old';
}
export interface Quantity {
  value: number;
  unit: string;
  system: string;
  code: string;
}
export interface FhirResource {
  resourceType: string;
  id?: string;
  meta?: { profile?: string[]; source?: string; lastUpdated?: string };
  [field: string]: unknown;
}
