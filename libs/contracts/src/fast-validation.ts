/**
 * A fast path in front of joi for the catalog's schemas. joi spends about 20 µs on a 1 KB record
 * event, and ingestion validates each record several times (the request, the event on publishing,
 * each consuming group); a plain function does the same checks in a few microseconds.
 *
 * The function is compiled once per schema and options from the schema's own description
 * (`schema.describe()`), so joi stays the one definition. It knows a small part of joi (objects,
 * strings with patterns and ISO dates, numbers and integers, booleans, arrays, value lists and
 * allowed values, alternatives chosen by a field, primitive defaults) and answers only when it is
 * sure: a value joi accepts, with the value joi would return. Anything else (a value joi would
 * refuse, or convert in a way not known here, or a schema using anything else) goes to joi, so
 * refusals and their messages stay joi's. fast-validation.test.ts holds it against joi on the
 * catalog's fixtures and thousands of mutations of them.
 */
import type Joi from 'joi';

/** The fast path cannot tell: ask joi. */
const UNSURE = Symbol('ask joi');
type Check = (value: unknown) => unknown;

interface Prefs {
  convert: boolean;
  allowUnknown: boolean;
}

interface Description {
  type: string;
  flags?: Record<string, unknown>;
  rules?: { name: string; args?: Record<string, unknown> }[];
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: { schema?: Description; ref?: { path: string[]; ancestor?: number }; switch?: { is: Description; then: Description }[] }[];
}

class Unsupported extends Error {}

const KNOWN_PROPS = new Set(['type', 'flags', 'rules', 'allow', 'keys', 'items', 'matches']);
const KNOWN_FLAGS = new Set(['presence', 'only', 'unknown', 'default']);
/** The ISO times the catalog writes, a strict subset of what joi's isoDate reads. */
const ISO_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?Z$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOverride = (v: unknown) => isObject(v) && v.override === true;

function compile(d: Description, prefs: Prefs): Check {
  for (const k of Object.keys(d)) if (!KNOWN_PROPS.has(k)) throw new Unsupported(k);
  for (const f of Object.keys(d.flags ?? {})) if (!KNOWN_FLAGS.has(f)) throw new Unsupported(f);
  const listed = (d.allow ?? []).filter((v) => !isOverride(v));
  if (listed.some((v) => v !== null && typeof v === 'object')) throw new Unsupported('allow');
  const only = d.flags?.only === true;
  const check = only ? undefined : byType(d, prefs);
  return (value) => (listed.includes(value) ? value : check ? check(value) : UNSURE);
}

function byType(d: Description, prefs: Prefs): Check {
  const rules = d.rules ?? [];
  const known = (...names: string[]) => {
    for (const r of rules) if (!names.includes(r.name)) throw new Unsupported(r.name);
  };
  switch (d.type) {
    case 'any':
      known();
      return (v) => v;
    case 'boolean':
      known();
      return (v) => (typeof v === 'boolean' ? v : UNSURE);
    case 'number': {
      known('integer');
      const integer = rules.length > 0;
      return (v) => {
        if (typeof v !== 'number' || !Number.isFinite(v) || v > Number.MAX_SAFE_INTEGER || v < Number.MIN_SAFE_INTEGER) return UNSURE;
        if (integer && !Number.isInteger(v)) return UNSURE;
        return v === 0 ? 0 : v; // joi answers -0 as 0
      };
    }
    case 'string':
      return stringCheck(d, prefs);
    case 'array':
      return arrayCheck(d, prefs);
    case 'object':
      return objectCheck(d, prefs);
    case 'alternatives':
      return alternativesCheck(d, prefs);
    default:
      throw new Unsupported(d.type);
  }
}

function stringCheck(d: Description, prefs: Prefs): Check {
  const patterns: RegExp[] = [];
  let isoDate = false;
  for (const r of d.rules ?? []) {
    if (r.name === 'isoDate') isoDate = true;
    else if (r.name === 'pattern' && typeof r.args?.regex === 'string' && Object.keys(r.args).length === 1) {
      const text = r.args.regex;
      const end = text.lastIndexOf('/');
      patterns.push(new RegExp(text.slice(1, end), text.slice(end + 1)));
    } else throw new Unsupported(r.name);
  }
  return (v) => {
    if (typeof v !== 'string' || v === '') return UNSURE;
    let out = v;
    if (isoDate) {
      if (!ISO_TIME.test(v)) return UNSURE;
      const time = new Date(v);
      if (Number.isNaN(time.getTime())) return UNSURE;
      // joi rewrites an ISO date into toISOString()'s form when it converts.
      if (prefs.convert) out = time.toISOString();
    }
    for (const p of patterns) if (!p.test(out)) return UNSURE;
    return out;
  };
}

function arrayCheck(d: Description, prefs: Prefs): Check {
  if ((d.rules ?? []).length > 0 || (d.items ?? []).length > 1) throw new Unsupported('array');
  const item = d.items?.[0] ? compile(d.items[0], prefs) : (v: unknown) => v;
  return (v) => {
    if (!Array.isArray(v)) return UNSURE;
    let out = v;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x === undefined) return UNSURE; // a sparse array is joi's to refuse
      const r = item(x);
      if (r === UNSURE) return UNSURE;
      if (r !== x) {
        if (out === v) out = v.slice();
        out[i] = r;
      }
    }
    return out;
  };
}

function objectCheck(d: Description, prefs: Prefs): Check {
  if ((d.rules ?? []).length > 0) throw new Unsupported('object rules');
  if (!d.keys) return (v) => (isObject(v) ? v : UNSURE); // no keys named: any keys
  const keys = Object.entries(d.keys).map(([name, k]) => {
    const fallback = k.flags?.default;
    if (fallback !== undefined && fallback !== null && typeof fallback === 'object') throw new Unsupported('default');
    return { name, check: compile(k, prefs), presence: k.flags?.presence ?? 'optional', fallback };
  });
  const named = new Set(keys.map((k) => k.name));
  const unknownAllowed = d.flags?.unknown ?? prefs.allowUnknown;
  return (v) => {
    if (!isObject(v)) return UNSURE;
    let out = v;
    const set = (name: string, value: unknown) => {
      if (out === v) out = { ...v };
      out[name] = value;
    };
    for (const { name, check, presence, fallback } of keys) {
      const x = v[name];
      if (x === undefined) {
        if (presence === 'required') return UNSURE;
        if (fallback !== undefined && presence !== 'forbidden') set(name, fallback);
        continue;
      }
      if (presence === 'forbidden') return UNSURE;
      const r = check(x);
      if (r === UNSURE) return UNSURE;
      if (r !== x) set(name, r);
    }
    if (!unknownAllowed) for (const k of Object.keys(v)) if (!named.has(k)) return UNSURE;
    return out;
  };
}

function alternativesCheck(d: Description, prefs: Prefs): Check {
  const matches = d.matches ?? [];
  // Tried in order: only the first can be trusted (a later one may win in joi after a conversion).
  if (matches.length > 0 && matches.every((m) => m.schema && Object.keys(m).length === 1)) return compile(matches[0].schema as Description, prefs);
  const [m] = matches;
  if (matches.length !== 1 || !m.ref || !m.switch || Object.keys(m).length !== 2 || m.ref.path.length !== 1 || (m.ref.ancestor ?? 1) !== 0) throw new Unsupported('alternatives');
  const field = m.ref.path[0];
  const cases = new Map<unknown, Check>();
  for (const { is, then } of m.switch) {
    const literals = (is.allow ?? []).filter((v) => !isOverride(v));
    if (is.type !== 'any' || is.flags?.only !== true || is.rules || literals.length !== 1) throw new Unsupported('switch');
    if (!cases.has(literals[0])) cases.set(literals[0], compile(then, prefs));
  }
  return (v) => {
    const check = isObject(v) ? cases.get(v[field]) : undefined;
    return check ? check(v) : UNSURE;
  };
}

const compiled = new WeakMap<Joi.Schema, Map<string, Check | null>>();

/**
 * joi's value for `value` when the fast path is sure it passes, else undefined (ask joi). Knows the
 * options abortEarly, convert and allowUnknown; with any other option it always answers undefined.
 */
export function fastValidate(schema: Joi.Schema, value: unknown, options: Joi.ValidationOptions = {}): { value: unknown } | undefined {
  const { abortEarly: _abortEarly, convert = true, allowUnknown = false, ...other } = options;
  if (Object.keys(other).length > 0 || value === undefined) return undefined;
  let bySchema = compiled.get(schema);
  if (!bySchema) compiled.set(schema, (bySchema = new Map()));
  const key = `${convert}/${allowUnknown}`;
  let check = bySchema.get(key);
  if (check === undefined) {
    try {
      check = compile(schema.describe() as Description, { convert, allowUnknown });
    } catch (err) {
      if (!(err instanceof Unsupported)) throw err;
      check = null;
    }
    bySchema.set(key, check);
  }
  if (!check) return undefined;
  const out = check(value);
  return out === UNSURE ? undefined : { value: out };
}
