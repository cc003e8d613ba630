/**
 * A merged read's choice between sources as a FHIR Provenance: which records a value came from
 * (entity role `source`), which records of other sources told the same event and were set aside by
 * the organization's source priority (role `removal`), and the policy that decided. The agent is
 * Wellstream assembling the view (participant type `assembler`).
 */
import type { FhirResource } from './fhir-types';
import { PROVENANCE_PARTICIPANT_TYPE, RECORD_ID_SYSTEM, SOURCE_PRIORITY_POLICY } from './systems';

export interface ProvenanceRecordRef {
  record_id: string;
  source: string;
  log_id?: string;
}

export interface SourceChoice {
  /** The Observations whose values the choice produced (ids). */
  targets: string[];
  /** When the merged view was made (an instant). */
  recorded: string;
  /** The records the value came from. */
  used: ProvenanceRecordRef[];
  /** Records of other sources that the priority set aside. */
  setAside?: ProvenanceRecordRef[];
}

const entity = (role: 'source' | 'removal', r: ProvenanceRecordRef) => ({
  role,
  what: { identifier: { system: RECORD_ID_SYSTEM, value: r.record_id }, display: `${r.source}${r.log_id ? ` ${r.log_id}` : ''}` },
});

export function provenanceResource(id: string, choice: SourceChoice): FhirResource {
  return {
    resourceType: 'Provenance',
    id,
    target: choice.targets.map((t) => ({ reference: `Observation/${t}` })),
    recorded: choice.recorded,
    policy: [SOURCE_PRIORITY_POLICY],
    agent: [
      {
        type: { coding: [{ system: PROVENANCE_PARTICIPANT_TYPE, code: 'assembler', display: 'Assembler' }] },
        who: { display: 'Wellstream source priority' },
      },
    ],
    entity: [...choice.used.map((r) => entity('source', r)), ...(choice.setAside ?? []).map((r) => entity('removal', r))],
  };
}
