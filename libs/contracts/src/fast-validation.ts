/**
 * A fast path in front of joi for the catalog's schemas. joi spends about 20 µs on a 1 KB record
 * event, and ingestion validates each record several times (the request, the event on publishing,
 * each consuming group); a plain function does the same checks in a few microseconds.
 *
 * The function is compiled once per schema and options from the schema's own description
 * (`schema.describe()`), so joi stays the one definition. It knows a small part of joi (objects,
 * strings with patterns, ISO dates and lengths, numbers with integer and min/max, booleans, arrays
 * with counts, value lists and allowed values, alternatives chosen by a field, a `when` switch on a
 * sibling, custom rules (run as written), stripped keys, JSON defaults) and answers only when it is
 * sure: a value joi accepts, with the value joi would return. Anything else (a value joi would
 * refuse, or convert in a way not known here, or a schema using anything else) goes to joi, so
 * refusals and their messages stay joi's. fast-validation.test.ts holds it against joi on the
 * catalog's fixtures and thousands of mutations of them; record-fast-path.test.ts (records service)
 * does the same for ingestion's record schemas.
 */
import type Joi from 'joi';

/** The fast path cannot tell: ask joi. */
const UNSURE = Symbol('ask joi');
/** `parent` is the object holding the value (custom rules and `when` conditions read siblings). */
type Check = (value: unknown, parent?: Record<string, unknown>) => unknown;

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
  whens?: { ref?: { path: string[]; ancestor?: number }; switch?: { is: Description; then: Description }[] }[];
  preferences?: Record<string, unknown>;
}

class Unsupported extends Error {}

const KNOWN_PROPS = new Set(['type', 'flags', 'rules', 'allow', 'keys', 'items', 'matches', 'whens', 'preferences']);
const KNOWN_FLAGS = new Set(['presence', 'only', 'unknown', 'default', 'result']);
/** The ISO times the catalog writes, a strict subset of what joi's isoDate reads. */
const ISO_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?Z$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOverride = (v: unknown) => isObject(v) && v.override === true;
/** The values a schema lists with valid()/allow(), without joi's override marker. */
const listedValues = (d: Description): unknown[] => (d.allow ?? []).filter((v) => !isOverride(v));
/** Custom messages change what a refusal says, never what passes; any other preference might. */
const onlyMessages = (d: Description) => Object.keys(d.preferences ?? {}).every((k) => k === 'messages');

/** The literal a switch case compares with (`is: literal`); anything else is not known here. */
function switchLiteral(is: Description): unknown {
  const literals = listedValues(is);
  if (is.type !== 'any' || is.flags?.only !== true || is.rules || literals.length !== 1) throw new Unsupported('switch');
  return literals[0];
}
const isPlainJson = (v: unknown): boolean =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) ? v.every(isPlainJson) : isObject(v) && Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(isPlainJson));

function compile(d: Description, prefs: Prefs): Check {
  for (const k of Object.keys(d)) if (!KNOWN_PROPS.has(k)) throw new Unsupported(k);
  for (const f of Object.keys(d.flags ?? {})) if (!KNOWN_FLAGS.has(f)) throw new Unsupported(f);
  if (!onlyMessages(d)) throw new Unsupported('preferences');
  if (d.flags?.result !== undefined && d.flags.result !== 'strip') throw new Unsupported('result');
  const listed = listedValues(d);
  if (listed.some((v) => v !== null && typeof v === 'object')) throw new Unsupported('allow');
  const only = d.flags?.only === true;
  const check = only ? undefined : d.whens ? whenCheck(d, prefs) : byType(d, prefs);
  return (value, parent) => (listed.includes(value) ? value : check ? check(value, parent) : UNSURE);
}

/**
 * A custom rule (joi's `custom(method)`): run with the little of joi's helpers such rules use here
 * (`error`, `state.ancestors[0]`). Sure only when the method returns the value itself; an error, a
 * throw, a changed value or a helper it does not have leave the value to joi.
 */
function customRule(method: unknown): Check {
  if (typeof method !== 'function') throw new Unsupported('custom');
  const refused = {};
  return (value, parent) => {
    try {
      const helpers = { error: () => refused, state: { ancestors: [parent] } };
      return (method as (v: unknown, h: unknown) => unknown)(value, helpers) === value ? value : UNSURE;
    } catch {
      return UNSURE;
    }
  };
}

/** A numeric limit of a rule (`min`, `max`), never a reference to another field. */
function limitOf(rule: { name: string; args?: Record<string, unknown> }): number {
  const { limit, ...rest } = rule.args ?? {};
  if (typeof limit !== 'number' || Object.values(rest).some((v) => v !== undefined)) throw new Unsupported(rule.name);
  return limit;
}

/** The rules of a type that bound a size (length, count or value) and custom rules, as checks. */
function sizeAndCustomRules(d: Description, measure: (v: never) => number, also: string[] = []): Check[] {
  const checks: Check[] = [];
  for (const r of d.rules ?? []) {
    if (r.name === 'min' || r.name === 'max') {
      const limit = limitOf(r);
      checks.push(r.name === 'min' ? (v) => (measure(v as never) >= limit ? v : UNSURE) : (v) => (measure(v as never) <= limit ? v : UNSURE));
    } else if (r.name === 'custom') checks.push(customRule(r.args?.method));
    else if (!also.includes(r.name)) throw new Unsupported(r.name);
  }
  return checks;
}

const passes = (checks: Check[], value: unknown, parent?: Record<string, unknown>) => {
  for (const c of checks) if (c(value, parent) === UNSURE) return false;
  return true;
};

/**
 * `when(sibling, {switch: [{is: literal, then: valid(...)}]})`: where the sibling holds one of the
 * literals, the value must be one of that case's values; elsewhere the base schema holds.
 */
function whenCheck(d: Description, prefs: Prefs): Check {
  const [w, ...more] = d.whens ?? [];
  if (more.length > 0 || !w.ref || !w.switch || Object.keys(w).length !== 2 || w.ref.path.length !== 1 || (w.ref.ancestor ?? 1) !== 1) throw new Unsupported('when');
  const field = w.ref.path[0];
  const cases = new Map<unknown, unknown[]>();
  for (const { is, then } of w.switch) {
    const literal = switchLiteral(is);
    const { flags, allow: _allow, preferences: _preferences, type, ...other } = then;
    const values = listedValues(then);
    if (type !== 'any' || Object.keys(other).length > 0 || Object.keys(flags ?? {}).join() !== 'only' || !onlyMessages(then) || values.some((v) => typeof v === 'object')) throw new Unsupported('then');
    if (!cases.has(literal)) cases.set(literal, values);
  }
  const base = byType({ ...d, whens: undefined }, prefs);
  return (v, parent) => {
    const values = parent ? cases.get(parent[field]) : undefined;
    if (values) return values.includes(v) ? v : UNSURE;
    return base(v, parent);
  };
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
      const integer = rules.some((r) => r.name === 'integer');
      const checks = sizeAndCustomRules(d, (v: number) => v, ['integer']);
      return (v, parent) => {
        if (typeof v !== 'number' || !Number.isFinite(v) || v > Number.MAX_SAFE_INTEGER || v < Number.MIN_SAFE_INTEGER) return UNSURE;
        if (integer && !Number.isInteger(v)) return UNSURE;
        const out = v === 0 ? 0 : v; // joi answers -0 as 0
        return passes(checks, out, parent) ? out : UNSURE;
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
    else if (r.name === 'pattern') {
      if (typeof r.args?.regex !== 'string' || Object.keys(r.args).length !== 1) throw new Unsupported('pattern');
      const text = r.args.regex;
      const end = text.lastIndexOf('/');
      patterns.push(new RegExp(text.slice(1, end), text.slice(end + 1)));
    }
  }
  // In joi's order: the rules as written, after the type's own conversion.
  const checks = sizeAndCustomRules(d, (v: string) => v.length, ['isoDate', 'pattern']);
  return (v, parent) => {
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
    return passes(checks, out, parent) ? out : UNSURE;
  };
}

function arrayCheck(d: Description, prefs: Prefs): Check {
  if ((d.items ?? []).length > 1) throw new Unsupported('array');
  const checks = sizeAndCustomRules(d, (v: unknown[]) => v.length);
  const item = d.items?.[0] ? compile(d.items[0], prefs) : (v: unknown) => v;
  return (v, parent) => {
    if (!Array.isArray(v) || !passes(checks, v, parent)) return UNSURE;
    let out = v;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x === undefined) return UNSURE; // a sparse array is joi's to refuse
      const r = item(x);
      if (r === UNSURE) return UNSURE;
      if (!Object.is(r, x)) {
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
    // joi hands out a copy of an object default each time (a function default is joi's own).
    if (typeof fallback === 'function' || (typeof fallback === 'object' && fallback !== null && !isPlainJson(fallback))) throw new Unsupported('default');
    const fresh =
      Array.isArray(fallback) && fallback.length === 0
        ? () => []
        : typeof fallback === 'object' && fallback !== null
          ? () => JSON.parse(JSON.stringify(fallback)) as unknown
          : () => fallback;
    return { name, check: compile(k, prefs), presence: k.flags?.presence ?? 'optional', fallback: fallback === undefined ? undefined : fresh, strip: k.flags?.result === 'strip' };
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
    for (const { name, check, presence, fallback, strip } of keys) {
      const x = v[name];
      if (x === undefined) {
        if (presence === 'required') return UNSURE;
        if (fallback !== undefined && presence !== 'forbidden' && !strip) set(name, fallback());
        continue;
      }
      if (presence === 'forbidden') return UNSURE;
      const r = check(x, out);
      if (r === UNSURE) return UNSURE;
      if (strip) {
        if (out === v) out = { ...v };
        delete out[name];
      } else if (!Object.is(r, x)) set(name, r); // Object.is: -0 becomes 0
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
    const literal = switchLiteral(is);
    if (!cases.has(literal)) cases.set(literal, compile(then, prefs));
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
