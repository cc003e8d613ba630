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
import { fastPathAgrees as agrees, mutationsAgree } from '@wellstream/testing';
import { fastValidate } from './fast-validation';
import { recordPayloadSchema } from './record-payload';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'v1');
/** Topics read on ingestion's path, whose schemas must take the fast path; the others may (e.g. not with hex rules). */
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

describe.each(cases)('$file', ({ event, schemas, hot }) => {
  it.each(schemas)('%s: the fixture takes the fast path when the topic is hot, with joi’s value', (_name, schema) => {
    for (const options of OPTIONS) if (!agrees(schema, event, options)) expect(hot).toBe(false);
  });

  it.each(schemas)('%s: 1,500 mutations: whatever the fast path accepts, joi accepts with an equal value', (_name, schema) => {
    const answered = mutationsAgree(schema, event, OPTIONS);
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
