/**
 * The FHIR search parameters this server takes, parsed strictly: an unknown parameter or a value
 * it cannot read is a 400 (answered as an OperationOutcome), never ignored, so a client does not
 * take a partial answer for the one it asked.
 */
import { badRequest } from '@wellstream/errors';
import { daysBetween, addDays } from '@wellstream/clock';

export const MAX_FHIR_RANGE_DAYS = 31;
export const DEFAULT_FHIR_DAYS = 7;
export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 1000;

const bad = (param: string, message: string) => badRequest('INVALID_FHIR_SEARCH', { [param]: [message] });

/** `[system|]code` tokens of a comma list. */
export interface Token {
  system?: string;
  code: string;
}

export interface ObservationSearch {
  patient: string;
  fromDate: string;
  toDate: string;
  codes?: Token[];
  categories?: Token[];
  count: number;
  offset: number;
}

// `token` is the developer token (the gateway's; never echoed in links).
const ALLOWED = new Set(['patient', 'subject', 'date', 'code', 'category', '_count', '_page', '_format', 'token']);

function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw bad(name, `${name} must be given once`);
  return v;
}

function tokens(name: string, value: string | undefined): Token[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(',').map((t) => t.trim());
  if (list.some((t) => !t)) throw bad(name, `${name} has an empty value`);
  return list.map((t) => {
    const bar = t.lastIndexOf('|');
    return bar < 0 ? { code: t } : { system: t.slice(0, bar) || undefined, code: t.slice(bar + 1) };
  });
}

const DATE = /^(eq|ge|gt|le|lt)?(\d{4}-\d{2}-\d{2})$/;

function dateRange(values: string[], today: string): { fromDate: string; toDate: string } {
  let from: string | undefined;
  let to: string | undefined;
  for (const v of values) {
    const m = DATE.exec(v);
    if (!m || Number.isNaN(Date.parse(m[2])) || new Date(m[2]).toISOString().slice(0, 10) !== m[2]) {
      throw bad('date', `date must be [eq|ge|gt|le|lt]YYYY-MM-DD (a calendar day), not ${JSON.stringify(v)}`);
    }
    const [prefix = 'eq', day] = [m[1], m[2]];
    if (prefix === 'eq') [from, to] = [day, day];
    else if (prefix === 'ge') from = day;
    else if (prefix === 'gt') from = addDays(day, 1);
    else if (prefix === 'le') to = day;
    else to = addDays(day, -1);
  }
  const toDate = to ?? (from ? addDays(from, MAX_FHIR_RANGE_DAYS - 1) : today);
  const fromDate = from ?? addDays(toDate, -(DEFAULT_FHIR_DAYS - 1));
  if (toDate < fromDate) throw bad('date', 'the date range is empty (its upper bound is before its lower bound)');
  if (daysBetween(fromDate, toDate) >= MAX_FHIR_RANGE_DAYS) throw bad('date', `a date range is at most ${MAX_FHIR_RANGE_DAYS} days; for more, page through ranges`);
  return { fromDate, toDate };
}

export function parseObservationSearch(query: Record<string, unknown>, today: string): ObservationSearch {
  const unknown = Object.keys(query).filter((k) => !ALLOWED.has(k));
  if (unknown.length) throw bad(unknown[0], `unsupported search parameter ${unknown[0]} (supported: patient, date, code, category, _count)`);
  const patientParam = single(query, 'patient') ?? single(query, 'subject');
  if (!patientParam) throw bad('patient', 'patient is required (Patient/<id> or <id>)');
  const patient = patientParam.startsWith('Patient/') ? patientParam.slice('Patient/'.length) : patientParam;
  if (!patient || patient.includes('/')) throw bad('patient', 'patient must be Patient/<id> or <id>');
  const dateValues = query.date === undefined ? [] : Array.isArray(query.date) ? query.date : [query.date];
  if (dateValues.length > 2 || dateValues.some((d) => typeof d !== 'string')) throw bad('date', 'date is given at most twice');
  const countText = single(query, '_count');
  const count = countText === undefined ? DEFAULT_COUNT : Number(countText);
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT || !/^\d+$/.test(countText ?? '1')) throw bad('_count', `_count must be an integer from 1 to ${MAX_COUNT}`);
  const pageText = single(query, '_page');
  const offset = pageText === undefined ? 0 : Number(pageText);
  if (!/^\d{1,9}$/.test(pageText ?? '0')) throw bad('_page', '_page must be the value a next link carries');
  const format = single(query, '_format');
  if (format !== undefined && !['json', 'application/json', 'application/fhir+json'].includes(format)) throw bad('_format', 'only JSON is served');
  return { patient, ...dateRange(dateValues as string[], today), codes: tokens('code', single(query, 'code')), categories: tokens('category', single(query, 'category')), count, offset };
}

/** Patient?identifier=[system|]uid */
export function parsePatientSearch(query: Record<string, unknown>): Token {
  const unknown = Object.keys(query).filter((k) => k !== 'identifier' && k !== '_format' && k !== 'token');
  if (unknown.length) throw bad(unknown[0], `unsupported search parameter ${unknown[0]} (supported: identifier)`);
  const value = single(query, 'identifier');
  if (value === undefined || value === '') throw bad('identifier', 'identifier is required ([system|]uid)');
  const bar = value.indexOf('|');
  return bar < 0 ? { code: value } : { system: value.slice(0, bar) || undefined, code: value.slice(bar + 1) };
}
