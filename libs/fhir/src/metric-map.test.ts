import fs from 'node:fs';
import path from 'node:path';
import { METRICS } from '@wellstream/catalog';
import { mappingTableMarkdown } from './mapping-table';
import { BLOOD_PRESSURE_PANEL, CGM_READING, codedQuantity, FHIR_METRICS } from './metric-map';
import { LOINC } from './systems';
import { UCUM_UNITS } from './units';

const ROOT = path.resolve(__dirname, '../../..');
const sources = fs
  .readFileSync(path.join(__dirname, '../code-sources.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => l.split('\t'));

const usedLoinc = new Map<string, string>();
for (const row of FHIR_METRICS) for (const c of [...row.codes, ...Object.values(row.codesByUnit ?? {}).flat()]) if (c.system === LOINC) usedLoinc.set(c.code, c.display ?? '');
for (const c of [BLOOD_PRESSURE_PANEL.code, BLOOD_PRESSURE_PANEL.systolic, BLOOD_PRESSURE_PANEL.diastolic, ...Object.values(CGM_READING)]) usedLoinc.set(c.code, c.display ?? '');
usedLoinc.set('73985-4', 'Exercise activity'); // the workout Observation (observations.ts)

describe('the FHIR mapping table', () => {
  it('maps every catalog metric, once', () => {
    expect(FHIR_METRICS.map((r) => r.metric).sort()).toEqual(METRICS.map((m) => m.type).sort());
  });

  it('has a UCUM unit for every unit of every catalog metric', () => {
    for (const m of METRICS) for (const u of m.units) expect([m.type, u, codedQuantity(m.type, u, 1)?.unit.code]).toEqual([m.type, u, expect.any(String)]);
    expect(Object.keys(UCUM_UNITS).sort()).toEqual([...new Set(METRICS.flatMap((m) => m.units))].sort());
  });

  it('converts height in metres to the centimetres the bodyheight profile takes', () => {
    expect(codedQuantity('height', 'm', 1.8)).toMatchObject({ value: 180, unit: { code: 'cm' } });
  });

  it('has a source for every LOINC code it uses, and no source row for a code it does not use', () => {
    const rows = new Map(sources.map(([code, display, kind, source]) => [code, { display, kind, source }]));
    for (const [code, display] of usedLoinc) {
      expect([code, rows.get(code)?.display]).toEqual([code, display]);
      expect(rows.get(code)?.source).toBeTruthy();
    }
    expect([...rows.keys()].filter((c) => !usedLoinc.has(c))).toEqual([]);
    expect(new Set(sources.map(([, , kind]) => kind))).toEqual(new Set(['profile', 'ig', 'listing']));
  });

  it('is the table docs/fhir.md shows', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/fhir.md'), 'utf8');
    expect(doc).toContain(mappingTableMarkdown());
  });
});
