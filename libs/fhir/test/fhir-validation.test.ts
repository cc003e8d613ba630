/**
 * Every resource the mapping writes, validated by HL7's FHIR validator (deploy/fhir-validator, one
 * JVM for the file): a sample of every catalog metric in every unit and record type, the structured
 * records (blood-pressure panel, sleep stages, workouts, segments, CGM series), Patient, Device,
 * Provenance and the bundles. Zero errors against R4 core and, for each Observation, the profiles
 * it declares plus the vital-signs profile for every vital-signs Observation (R4 asks that of that
 * category).
 *
 * The CGM IG's package is served by no registry reachable here, so CGM readings are validated
 * against core, and the elements the IG's sensor-reading profiles require are checked below.
 */
import { formatFhirMessages, FhirValidator } from '@wellstream/testing';
import {
  deviceResource,
  observationsOf,
  patientResource,
  provenanceResource,
  searchsetBundle,
  transactionBundle,
  type FhirResource,
  OBSERVATION_CATEGORY,
  LOINC,
  UCUM,
} from '@wellstream/fhir';
import { bloodPressureRecord, cgmRecord, everyMetricRecords, structuredRecords } from './fhir-samples';

const VITALSIGNS = 'http://hl7.org/fhir/StructureDefinition/vitalsigns';
let validator: FhirValidator;

beforeAll(async () => {
  validator = await FhirValidator.start();
}, 15 * 60_000);
afterAll(async () => validator?.stop());

const profilesOf = (r: FhirResource) => {
  const declared = r.meta?.profile ?? [];
  const vital = (r.category as { coding: { system: string; code: string }[] }[] | undefined)?.some((c) => c.coding.some((k) => k.system === OBSERVATION_CATEGORY && k.code === 'vital-signs'));
  return [...new Set([...declared, ...(vital ? [VITALSIGNS] : [])])];
};

async function expectValid(resources: FhirResource[]) {
  const failures: string[] = [];
  for (const r of resources) {
    const errors = await validator.errors(r, profilesOf(r));
    if (errors.length) failures.push(`${r.resourceType}/${r.id as string} (${(r.code as { text?: string } | undefined)?.text ?? ''}):\n${formatFhirMessages(errors)}`);
  }
  expect(failures).toEqual([]);
}

describe('FHIR resources against the HL7 validator', () => {
  it('finds the errors of a broken resource (the validator is really checking)', async () => {
    const [hr] = observationsOf(bloodPressureRecord()).filter((o) => (o.code as { text: string }).text === 'Heart rate');
    const broken = { ...hr, valueQuantity: { value: 66, unit: 'kg', system: UCUM, code: 'kg' }, status: 'done' };
    const errors = await validator.errors(broken, profilesOf(broken));
    expect(errors.map((e) => e.location)).toEqual(expect.arrayContaining(['Observation.status']));
    expect(errors.some((e) => /heartrate|\/min|kg/.test(e.message))).toBe(true);
  });

  it('accepts an Observation of every catalog metric in every unit and record type', async () => {
    const observations = everyMetricRecords().flatMap(observationsOf);
    expect(observations.length).toBeGreaterThan(100);
    await expectValid(observations);
  }, 300_000);

  it('accepts the blood-pressure panel, sleep stages, workouts, segments and CGM series', async () => {
    const observations = structuredRecords().flatMap(observationsOf);
    const bp = observations.find((o) => (o.code as { coding: { code: string }[] }).coding[0].code === '85354-9');
    expect(bp?.meta?.profile).toEqual(['http://hl7.org/fhir/StructureDefinition/bp']);
    expect(bp?.effectiveDateTime).toBe('2026-03-01T02:30:00-05:00');
    await expectValid(observations);
  }, 120_000);

  it('accepts Patient (any uid), Device (with and without a device) and Provenance', async () => {
    const records = structuredRecords();
    const resources: FhirResource[] = [
      patientResource({ uid: 'patient-0001', organization_id: 'org-1' }),
      patientResource({ uid: 'dr.who/ünïcode id', organization_id: 'org-1' }),
      patientResource({ uid: 'x'.repeat(200), organization_id: 'org-1' }),
      ...records.map((r) => deviceResource(r.user.user_id, 'patient-0001', r.source)),
      provenanceResource('p-1', {
        targets: [observationsOf(records[4])[0].id as string],
        recorded: '2026-03-02T00:00:00Z',
        used: [{ record_id: records[4].id, source: 'oura', log_id: records[4].log_id }],
        setAside: [{ record_id: records[3].id, source: 'polar' }],
      }),
    ];
    await expectValid(resources);
  }, 60_000);

  it('accepts a search answer and a transaction of a CGM series as bundles', async () => {
    const cgm = observationsOf(cgmRecord('mg/dl'));
    await expectValid([
      transactionBundle('https://fhir.example-ehr.com/r4', [patientResource({ uid: 'patient-0001', organization_id: 'org-1' }), ...cgm]),
      searchsetBundle({ baseUrl: 'https://api.example.com/v2/organizations/org-1/fhir', self: 'https://api.example.com/v2/organizations/org-1/fhir/Observation?patient=patient-0001', next: 'https://api.example.com/v2/organizations/org-1/fhir/Observation?patient=patient-0001&_page=x', resources: cgm.slice(0, 5), total: 12 }),
    ]);
  }, 60_000);

  it('writes CGM readings with every element the CGM IG sensor-reading profiles require', () => {
    for (const [unit, code, ucum] of [
      ['mg/dl', '99504-3', 'mg/dL'],
      ['mmol/l', '105272-9', 'mmol/L'],
    ] as const) {
      const readings = observationsOf(cgmRecord(unit));
      expect(readings).toHaveLength(12);
      for (const o of readings) {
        expect(o).toMatchObject({
          resourceType: 'Observation',
          status: 'final',
          category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory' }] }],
          code: { coding: [{ system: LOINC, code }] },
          subject: { reference: expect.stringMatching(/^Patient\//) },
          effectiveDateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
          valueQuantity: { value: expect.any(Number), system: UCUM, code: ucum },
        });
        expect(o.effectivePeriod).toBeUndefined();
      }
    }
  });
});
