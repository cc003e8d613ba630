/**
 * The record: its API payload, its stored document, and the invariants of identity and versioning.
 * Identity is (user, source.type, log_id), so the id is derived from it: two writers of the same
 * record cannot create two ids. The checksum hashes the normalized content (canonical JSON with
 * sorted keys), so identical content is recognised whatever the key order of the request.
 */
import { createHash } from 'node:crypto';
import type { ResourceType } from '@wellstream/catalog';
import type { RecordContent, RecordPayload } from '@wellstream/contracts';

export const RECORD_VERSION = '1.0';

export type { OffsetOrigin, RecordPayload } from '@wellstream/contracts';

export type RecordUser = RecordPayload['user'];

/** The stored document: query fields beside the payload, which is served as it is. */
export interface RecordDoc {
  _id: string;
  user_id: string;
  organization_id: string;
  customer_id: string;
  type: ResourceType;
  source_type: string;
  log_id: string;
  /** The day of the record's local start (start_time + utc_offset): the REST date filter. */
  local_date: string;
  start_time: string;
  deleted_at: string | null;
  checksum: string;
  /**
   * The content key this record owns (contentKeyOf): set when it was stored under this release and
   * was the first of its content, so a re-send of it under another log id is recognised.
   */
  content_key?: string;
  payload: RecordPayload;
}

/** Validated content of one ingested record (after joi defaults), utc_offset and origin resolved. */
export type NormalizedContent = RecordContent & { deleted: boolean };

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const checksumOf = (content: NormalizedContent): string => createHash('sha256').update(canonicalJson(content)).digest('hex');

/**
 * The checksum and the content key of a record, from one canonical encoding. The content key
 * hashes everything but the log id and the deleted flag, under the user: the same record re-sent
 * under another log id has the same key (same type, source and device, times, offset and values).
 */
export function checksumAndContentKey(userId: string, content: NormalizedContent): { checksum: string; contentKey: string } {
  const parts: string[] = [];
  const keyParts: string[] = [];
  for (const [k, v] of Object.entries(content as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const part = `${JSON.stringify(k)}:${canonicalJson(v)}`;
    parts.push(part);
    if (k !== 'log_id' && k !== 'deleted') keyParts.push(part);
  }
  const checksum = createHash('sha256').update(`{${parts.join(',')}}`).digest('hex');
  const contentKey = createHash('sha256').update(`${userId}\u0000{${keyParts.join(',')}}`).digest('hex');
  return { checksum, contentKey: `c:${contentKey}` };
}

/** A UUID-shaped id derived from the identity (user, source type, log id). */
export function recordIdOf(userId: string, sourceType: string, logId: string): string {
  const h = createHash('sha256').update(`${userId}\u0000${sourceType}\u0000${logId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function buildPayload(args: {
  id: string;
  checksum: string;
  content: NormalizedContent;
  user: RecordUser;
  createdAt: string;
  deletedAt: string | null;
}): RecordPayload {
  const { deleted: _deleted, ...content } = args.content;
  // The fields in the order the API has always answered with; the type's own fields follow.
  const head = {
    id: args.id,
    type: content.type,
    version: RECORD_VERSION,
    checksum: args.checksum,
    log_id: content.log_id,
    start_time: content.start_time,
    end_time: content.end_time,
    utc_offset: content.utc_offset,
    offset_origin: content.offset_origin,
    user: args.user,
    source: content.source,
    metrics: content.metrics,
    created_at: args.createdAt,
    deleted_at: args.deletedAt,
    user_notes: content.user_notes,
    tags: content.tags,
  };
  return Object.assign(head, content);
}

/** The content of a stored payload (to re-checksum it, e.g. when a deletion names the record only). */
export function contentOf(payload: RecordPayload, deleted: boolean): NormalizedContent {
  const { id: _i, version: _v, checksum: _c, user: _u, created_at: _ca, deleted_at: _d, ...content } = payload;
  return { ...content, deleted };
}
