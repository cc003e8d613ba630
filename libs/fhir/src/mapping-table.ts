/**
 * The mapping table as docs/fhir.md shows it, written from FHIR_METRICS so the document cannot
 * drift from the code (a test compares them).
 */
import { METRICS } from '@wellstream/catalog';
import { CGM_READING, FHIR_METRICS } from './metric-map';
import { LOINC } from './systems';
import { UCUM_UNITS } from './units';

export function mappingTableMarkdown(): string {
  const lines = ['| metric | code | UCUM units | category | profile |', '| --- | --- | --- | --- | --- |'];
  for (const row of FHIR_METRICS) {
    const units = METRICS.find((m) => m.type === row.metric)?.units ?? [];
    const ucum = units.map((u) => {
      const conv = row.convert?.[u];
      return conv ? `\`${conv.unit.code}\` (from ${u})` : `\`${UCUM_UNITS[u]?.code ?? u}\``;
    });
    const codes = Object.entries(row.codesByUnit ?? { '': row.codes })
      .map(([unit, codes]) => codes.map((c) => (c.system === LOINC ? `LOINC ${c.code}` : `wellstream \`${c.code}\``)).join(' + ') + (unit ? ` (${unit})` : ''))
      .join(', ');
    const profile = row.profile ? row.profile.replace('http://hl7.org/fhir/StructureDefinition/', '') : '';
    lines.push(`| ${row.metric} | ${codes} | ${ucum.join(', ')} | ${row.category.code} | ${profile} |`);
  }
  const cgm = Object.entries(CGM_READING).map(([u, c]) => `LOINC ${c.code} (${u})`).join(', ');
  lines.push(`| blood_glucose in a cgm record | ${cgm} | \`mg/dL\`, \`mmol/L\` | laboratory | (CGM IG sensor reading) |`);
  return lines.join('\n');
}
