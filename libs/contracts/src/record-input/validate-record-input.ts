/**
 * Validates an ingestion body record by record against the schema of each record's type (the
 * records service then resolves utc_offset). Every problem of every record is reported, keyed like
 * `records[3].metrics[0].value`; one bad record rejects the whole request.
 */
import Joi from 'joi';
import { RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import { badRequest, fieldPath, validate } from '@wellstream/errors';
import type { FieldErrors } from '@wellstream/errors';
import * as typed from '../typed-schema';
import type { Typed } from '../typed-schema';
import { deletionStubSchema, Ingested, ingestRequestSchema, MAX_RECORDS_PER_REQUEST, RECORD_SCHEMAS, recordTypeSchema } from './record-input.schema';

/** Refused records: 400 with every problem keyed by its field path. */
export const invalidRecords = (fields: FieldErrors) => badRequest('INVALID_RECORDS', fields);

/** A validated record before its offset is resolved. */
export type ValidatedContent = Ingested & { deleted: boolean };

/** A full record, or a deletion that names the record only. */
export type ValidatedRecord =
  | { kind: 'full'; content: ValidatedContent }
  | { kind: 'deletion'; type: ResourceType; source: { type: string }; log_id: string };

const typeOnly = typed.object({ type: typed.string(recordTypeSchema) }, (o) => o.unknown(true));
const isResourceType = (t: string): t is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(t);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The envelope as the schema wants it (`{records: [1..max objects]}`, nothing else): checked in
 * plain code, as most requests are; anything else goes to joi for its exact errors.
 */
function wellFormedRecords(body: unknown): Record<string, unknown>[] | undefined {
  if (!isObject(body)) return undefined;
  const { records } = body;
  if (Object.keys(body).length !== 1 || !Array.isArray(records)) return undefined;
  if (records.length < 1 || records.length > MAX_RECORDS_PER_REQUEST || !records.every(isObject)) return undefined;
  return records as Record<string, unknown>[];
}

export function validateRecords(body: unknown): ValidatedRecord[] {
  const records =
    wellFormedRecords(body) ?? (validate(ingestRequestSchema, body, { code: 'INVALID_RECORDS' }) as { records: Record<string, unknown>[] }).records;
  const errors: FieldErrors = {};
  const out: ValidatedRecord[] = [];
  const add = (index: number, err: Joi.ValidationError) => {
    for (const d of err.details) (errors[fieldPath(['records', index, ...d.path])] ??= []).push(d.message.replace(/"/g, ''));
  };
  // JSON types are strict: "70" for a number or "true" for a boolean is a client bug, not a value to guess at.
  const strict = { abortEarly: false, convert: false };
  records.forEach((raw, i) => {
    // A known type needs no schema run of its own; any other value gets joi's message.
    let type = raw.type;
    if (typeof type !== 'string' || !isResourceType(type)) {
      const t = typed.validateTyped(typeOnly, raw);
      if (t.error) return add(i, t.error);
      type = t.value.type;
      if (typeof type !== 'string' || !isResourceType(type)) return;
    }
    if (raw.deleted === true && raw.start_time === undefined) {
      const { value, error } = deletionStubSchema.validate(raw, strict);
      if (error) return add(i, error);
      return void out.push({ kind: 'deletion', type, source: { type: value.source.type }, log_id: value.log_id });
    }
    const schema: Typed<Ingested> = RECORD_SCHEMAS[type];
    const full = typed.validateTyped(schema, raw, strict);
    if (full.error) return add(i, full.error);
    out.push({ kind: 'full', content: { ...full.value, deleted: full.value.deleted === true } });
  });
  if (Object.keys(errors).length) throw invalidRecords(errors);
  return out;
}
