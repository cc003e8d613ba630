/**
 * The events this process decoded lately, by message text and schema. Every consumer group of a
 * process that reads a topic decodes the same messages (the one-process platform runs the push and
 * the rules groups on customer events; several groups of one service may read one topic), and the
 * schema check, not the JSON, is the cost: about 30 µs a record each time (bench/ingestion.bench.mjs
 * profile, README). Kept events are frozen, so no group can change what another one reads.
 * Bounded by the texts' total length (the most recent ones), and a text too long to be worth it is
 * never kept: a stream of 100 KB events must not pin megabytes.
 */
import type Joi from 'joi';

/** About a thousand record events of 1 KB. */
export const KEPT_CHARS = 1_000_000;
const LONGEST_KEPT = 16_384;

const kept = new Map<string, Map<Joi.Schema, unknown>>();
let keptChars = 0;

/** The event `decode` makes of `text` with `schema`, made once while the text is among the recent ones. */
export function decodedOnce<S>(schema: Joi.Schema, text: string, decode: () => S): S {
  if (text.length > LONGEST_KEPT) return decode();
  let bySchema = kept.get(text);
  if (bySchema?.has(schema)) return bySchema.get(schema) as S;
  const event = deepFreeze(decode());
  if (!bySchema) {
    kept.set(text, (bySchema = new Map()));
    keptChars += text.length;
    // A Map keeps insertion order: the first key is the oldest.
    for (const oldest of kept.keys()) {
      if (keptChars <= KEPT_CHARS) break;
      kept.delete(oldest);
      keptChars -= oldest.length;
    }
  }
  bySchema.set(schema, event);
  return event;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
