/**
 * Catalog units (libs/catalog METRICS) as UCUM. `code` is the UCUM expression (case-sensitive),
 * `display` what people read. Counts carry a UCUM annotation ({steps}, {count}) so the unit still
 * says what was counted; annotations are valid UCUM and equal to 1.
 */
export interface UcumUnit {
  code: string;
  display: string;
}

export const UCUM_UNITS: Record<string, UcumUnit> = {
  kg: { code: 'kg', display: 'kg' },
  lb: { code: '[lb_av]', display: 'lb' },
  percent: { code: '%', display: '%' },
  'kg/m2': { code: 'kg/m2', display: 'kg/m2' },
  m: { code: 'm', display: 'm' },
  cm: { code: 'cm', display: 'cm' },
  km: { code: 'km', display: 'km' },
  mmHg: { code: 'mm[Hg]', display: 'mmHg' },
  bpm: { code: '/min', display: 'beats/minute' },
  'mg/dl': { code: 'mg/dL', display: 'mg/dL' },
  'mmol/l': { code: 'mmol/L', display: 'mmol/L' },
  celsius: { code: 'Cel', display: '°C' },
  fahrenheit: { code: '[degF]', display: '°F' },
  g: { code: 'g', display: 'g' },
  mg: { code: 'mg', display: 'mg' },
  kcal: { code: 'kcal', display: 'kcal' },
  kJ: { code: 'kJ', display: 'kJ' },
  ml: { code: 'mL', display: 'mL' },
  l: { code: 'L', display: 'L' },
  s: { code: 's', display: 's' },
  count: { code: '{count}', display: 'count' },
  'm/s': { code: 'm/s', display: 'm/s' },
  'km/h': { code: 'km/h', display: 'km/h' },
  spm: { code: '{steps}/min', display: 'steps/minute' },
  rpm: { code: '{revolutions}/min', display: 'revolutions/minute' },
};
