/**
 * The fast path against joi itself: on every fixture of the catalog and on thousands of seeded
 * mutations of them, whenever the fast path answers, joi accepts the same value and returns an
 * equal one. The fast path must also answer for the unmutated fixtures (else it would pass by
 * never answering).
 */
import fs from 'node:fs';
import path from 'node:path';
import Joi from 'joi';
import { ALL_TOPICS, customerEventEnvelopeSchema } from './index';
import { fastValidate } from './fast-validation';
import { recordPayloadSchema } from './record-payload';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'v1');
/** Topics read on ingestion's path, whose schemas must take the fast path; the others may not (e.g. hex rules). */
const HOT = ['events', 'users', 'source-detections'];
const OPTIONS: Joi.ValidationOptions[] = [{ abortEarly: false }, { abortEarly: false, allowUnknown: true }, { abortEarly: false, convert: false }];

function fixture(file: string): Record<string, unknown> {
  const text = fs.readFileSync(path.join(FIXTURES, file), 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, name: string) => (name === 'now' ? '2026-11-23T10:00:00Z' : `${name}-1`));
  return JSON.parse(text) as Record<string, unknown>;
}

const cases = fs
  .readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((file) => {
    const topic = ALL_TOPICS.find((t) => file.startsWith(`${t.spec.name}.`));
    if (!topic) throw new Error(`no topic for ${file}`);
    const schemas: [string, Joi.Schema][] = [[topic.spec.name, topic.schema]];
    if (topic.spec.name === 'events') schemas.push(['events (envelope)', customerEventEnvelopeSchema.joi]);
    return { file, event: fixture(file), schemas, hot: HOT.includes(topic.spec.name) };
  });

/** A small seeded generator, so a failure names a case that can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REPLACEMENTS: unknown[] = [null, '', 'x', 'data', 'measurement', 'rule', 0, -0, 1.5, -3, 2 ** 60, NaN, Infinity, '70', true, 'true', [], {}, ['x'], [1], undefined,
  '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.123456Z', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00+01:00', ' 2026-01-01T00:00:00Z'];

const fresh = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v);

/** Every place in a value: [container, key] pairs. */
function places(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []) {
  const visit = (container: Record<string, unknown> | unknown[], key: string | number, v: unknown) => {
    out.push([container, key]);
    places(v, out);
  };
  if (Array.isArray(value)) value.forEach((v, i) => visit(value, i, v));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(value as Record<string, unknown>, k, v);
  return out;
}

function mutate(event: Record<string, unknown>, next: () => number): unknown {
  // JSON copies, not structuredClone: jest's sandbox would give those another realm's prototypes.
  const copy = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
  const all = places(copy);
  for (let n = 1 + Math.floor(next() * 2); n > 0 && all.length; n--) {
    const [container, key] = all[Math.floor(next() * all.length)];
    const roll = next();
    if (roll < 0.2) delete (container as Record<string | number, unknown>)[key];
    else if (roll < 0.3 && !Array.isArray(container)) container[`extra_${n}`] = 'unknown';
    else (container as Record<string | number, unknown>)[key] = fresh(REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)]);
  }
  return copy;
}

function agrees(schema: Joi.Schema, value: unknown, options: Joi.ValidationOptions): boolean {
  const fast = fastValidate(schema, value, options);
  if (!fast) return false;
  const joi = schema.validate(value, options);
  expect(joi.error?.message).toBeUndefined();
  expect(fast.value).toStrictEqual(joi.value);
  return true;
}

describe.each(cases)('$file', ({ event, schemas, hot }) => {
  it.each(schemas)('%s: the fixture takes the fast path when the topic is hot, with joi’s value', (_name, schema) => {
    for (const options of OPTIONS) expect(agrees(schema, event, options)).toBe(hot);
  });

  it.each(schemas)('%s: 1,500 mutations: whatever the fast path accepts, joi accepts with an equal value', (_name, schema) => {
    const next = random(42);
    let answered = 0;
    for (let i = 0; i < 500; i++) {
      const value = mutate(event, next);
      for (const options of OPTIONS) if (agrees(schema, value, options)) answered++;
    }
    // Mutations that keep the value valid (an unknown key with allowUnknown, an optional field dropped) still take it.
    if (hot) expect(answered).toBeGreaterThan(0);
  });
});

it('answers for record payloads of the catalog and converts ISO dates as joi does', () => {
  const data = cases.find((c) => c.file === 'events.data.json')!.event;
  expect(agrees(recordPayloadSchema.joi, data.payload, {})).toBe(true);
  const iso = Joi.object({ at: Joi.string().isoDate() });
  expect(fastValidate(iso, { at: '2026-01-01T07:00:00Z' })).toEqual({ value: { at: '2026-01-01T07:00:00.000Z' } });
  expect(fastValidate(iso, { at: '2026-01-01T07:00:00Z' }, { convert: false })).toEqual({ value: { at: '2026-01-01T07:00:00Z' } });
});

it('leaves to joi what it does not know: other options, other rules, refusals', () => {
  const schema = Joi.object({ n: Joi.number(), s: Joi.string().email() });
  expect(fastValidate(Joi.object({ n: Joi.number() }), { n: 1 }, { stripUnknown: true })).toBeUndefined();
  expect(fastValidate(schema, { n: 1 })).toBeUndefined(); // email is not known here
  expect(fastValidate(Joi.object({ n: Joi.number() }), { n: '1' })).toBeUndefined(); // joi converts it
  expect(fastValidate(Joi.object({ n: Joi.number().required() }), {})).toBeUndefined();
  expect(fastValidate(Joi.object({ n: Joi.number() }), { n: 1, other: 2 })).toBeUndefined();
});
