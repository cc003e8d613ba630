import Joi from 'joi';
import { decodedOnce, KEPT_CHARS } from './decoded-events';

const schema = Joi.object({ a: Joi.object({ b: Joi.array().items(Joi.number()) }) });
const other = Joi.object().unknown(true);
let decodes = 0;
const decode = (text: string, s: Joi.Schema = schema) => () => {
  decodes++;
  return s.validate(JSON.parse(text)).value as { a: { b: number[] } };
};

beforeEach(() => (decodes = 0));

it('decodes a text once per schema and hands every caller the same frozen event', () => {
  const text = JSON.stringify({ a: { b: [1, 2] }, n: Math.random() });
  const first = decodedOnce(schema, text, decode(text));
  const second = decodedOnce(schema, text, decode(text));
  expect(second).toBe(first);
  expect(decodes).toBe(1);
  expect(Object.isFrozen(first) && Object.isFrozen(first.a) && Object.isFrozen(first.a.b)).toBe(true);
  expect(() => {
    first.a.b.push(3);
  }).toThrow(TypeError);
  // Another schema of the same text is its own decode.
  decodedOnce(other, text, decode(text, other));
  expect(decodes).toBe(2);
});

it('keeps no text longer than worth it, and forgets the oldest past its budget', () => {
  const long = JSON.stringify({ a: { b: [] }, pad: 'x'.repeat(20_000) });
  decodedOnce(schema, long, decode(long));
  decodedOnce(schema, long, decode(long));
  expect(decodes).toBe(2);

  const texts = Array.from({ length: Math.ceil(KEPT_CHARS / 1000) + 10 }, (_, i) => JSON.stringify({ a: { b: [i] }, pad: 'y'.repeat(1000) }));
  for (const t of texts) decodedOnce(schema, t, decode(t));
  decodes = 0;
  decodedOnce(schema, texts[texts.length - 1], decode(texts[texts.length - 1]));
  expect(decodes).toBe(0);
  decodedOnce(schema, texts[0], decode(texts[0]));
  expect(decodes).toBe(1);
});
