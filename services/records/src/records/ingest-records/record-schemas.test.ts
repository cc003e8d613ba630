/**
 * Ingestion's schemas and the record payload of libs/contracts are one contract: what ingestion
 * accepts, once the service has assigned its fields, is exactly a record payload. Checked twice:
 * by the compiler (the `same` table stops compiling when a field differs in name, type or
 * optionality), and at run time on a sample of every record type.
 */
import { RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import { OffsetOrigin, RecordContentOf, recordPayloadSchema } from '@wellstream/contracts';
import { sampleRecord } from '../../../test/records-fixtures';
import { buildPayload, checksumOf } from '../record';
import type { IngestedOf } from '@wellstream/contracts';
import { resolveOffset, validateRecords } from './validate-records';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** What ingestion stores of a record type: its validated input, utc_offset and its origin resolved, `deleted` read. */
type Stored<K extends ResourceType> = Flat<Omit<IngestedOf<K>, 'utc_offset' | 'deleted'> & { utc_offset: number; offset_origin: OffsetOrigin }>;

const same: { [K in ResourceType]: Equal<Stored<K>, Flat<RecordContentOf<K>>> } = {
  measurement: true,
  nutrition: true,
  sleep: true,
  summary: true,
  workout: true,
  intraday: true,
  cgm: true,
};

it('types: every record type ingests exactly the fields of its payload', () => {
  expect(Object.keys(same).sort()).toEqual([...RESOURCE_TYPES].sort());
});

it.each(RESOURCE_TYPES)('values: an ingested %s record is a valid record payload', (type) => {
  const [validated] = validateRecords({ records: [sampleRecord(type, '2026-01-02')] });
  if (validated.kind !== 'full') throw new Error('expected a full record');
  const { utc_offset, deleted: _deleted, ...rest } = validated.content;
  const content = { ...rest, ...resolveOffset(rest.start_time, utc_offset, { timezone: 'Europe/Berlin', timezone_origin: 'profile' }), deleted: false };
  const payload = buildPayload({ id: 'r1', checksum: checksumOf(content), content, user: { uid: 'p', user_id: 'u', organization_id: 'o' }, createdAt: '2026-01-02T00:00:00.000Z', deletedAt: null });
  expect(recordPayloadSchema.joi.validate(payload, { convert: false }).error).toBeUndefined();
  expect(recordPayloadSchema.joi.validate({ ...payload, unknown_field: 1 }, { convert: false }).error).toBeDefined();
});
