/**
 * What records reports of a phone store's accepted upload (`source-detections` with `upload`): the
 * sources service keeps the store's last upload and what it brought for `user.sources` and the
 * marketplace, and connects the store on its first record.
 */
import { sourceDefinition } from '@wellstream/catalog';
import type { SourceDetection } from '@wellstream/contracts';
import type { RecordDoc } from '../record';

export const isPhoneSource = (type: string) => sourceDefinition(type)?.kind === 'mobile';

export function bySource(docs: RecordDoc[]): Map<string, RecordDoc[]> {
  const out = new Map<string, RecordDoc[]>();
  for (const d of docs) out.set(d.source_type, [...(out.get(d.source_type) ?? []), d]);
  return out;
}

/**
 * A phone store's upload, reported every time (the sources service keeps the source's last upload
 * and what it brought, for `user.sources` and the marketplace); `first` when it holds the store's
 * first live record for the user, which connects it.
 */
export function uploadOf(docs: RecordDoc[], first: boolean): NonNullable<SourceDetection['upload']> {
  const live = docs.filter((d) => !d.deleted_at);
  const ends = live.map((d) => new Date(d.payload.end_time).toISOString()).sort();
  return { first, resources: [...new Set(live.map((d) => d.type))].sort(), last_record_at: ends.length ? ends[ends.length - 1] : null };
}

