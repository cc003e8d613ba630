/**
 * What this FHIR server does, as FHIR says it: R4, JSON, read and search of Patient, Observation
 * and Device with the search parameters the server takes (anything else is a 400).
 */
import type { FhirResource } from '@wellstream/fhir';

const search = (name: string, type: string, documentation: string) => ({ name, type, documentation });

export function capabilityStatement(now: string, baseUrl: string): FhirResource {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now,
    publisher: 'Wellstream',
    kind: 'instance',
    implementation: { description: 'Wellstream records as FHIR R4 (docs/fhir.md)', url: baseUrl },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        security: { description: 'A Wellstream developer token (the `token` query parameter or a Bearer header), with its hourly rate limit.' },
        resource: [
          {
            type: 'Patient',
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [search('identifier', 'token', 'The uid, optionally [system|]uid')],
          },
          {
            type: 'Observation',
            interaction: [{ code: 'search-type' }],
            searchParam: [
              search('patient', 'reference', 'Required: Patient/<id> or <id>'),
              search('date', 'date', '[eq|ge|gt|le|lt]YYYY-MM-DD, at most twice; local days; at most 31 days; default the last 7'),
              search('code', 'token', 'Comma list of [system|]code'),
              search('category', 'token', 'Comma list of [system|]code'),
            ],
          },
          { type: 'Device', interaction: [{ code: 'read' }] },
        ],
      },
    ],
  };
}
