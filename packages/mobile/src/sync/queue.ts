/**
 * The upload queue, persisted in segments so a sync killed at any point loses nothing: a segment
 * is removed only after the platform answered 200 for the request that carried it. A segment sent
 * but not acknowledged is sent again; the platform identifies records by (source.type, log_id),
 * so the repeat changes nothing.
 *
 * A segment is written once and never read back whole until it is sent: its key carries its
 * record count, its value is a one-line header (counts per resource, latest end time) and the
 * records' JSON, which goes into the request body as text. Segments are cut so that the oldest
 * ones add up to exactly one request (1,000 records), so queueing never re-reads or re-parses
 * what is already queued, and sending never parses what it sends.
 */
import type { ResourceType, Upload } from '../records';
import type { StoragePort } from './ports';

export const MAX_BATCH = 1000;
const PREFIX = 'wellstream:queue:';

export interface SegmentHeader {
  resources: Partial<Record<ResourceType, { count: number; lastEnd?: string }>>;
}

/** The oldest segments that fit one request, with their records as JSON text. */
export interface Batch {
  keys: string[];
  count: number;
  /** `[...]`: the records of every segment, in order. */
  json: string;
  headers: SegmentHeader[];
}

/** `wellstream:queue:<seq>:<count>`; a segment from before counts were in keys is `wellstream:queue:<seq>`. */
const countOf = (key: string): number | undefined => {
  const parts = key.slice(PREFIX.length).split(':');
  return parts.length > 1 ? Number(parts[1]) : undefined;
};
const seqOf = (key: string): number => Number(key.slice(PREFIX.length).split(':')[0]);
const keyOf = (seq: number, count: number) => `${PREFIX}${String(seq).padStart(12, '0')}:${count}`;

function headerOf(uploads: Upload[]): SegmentHeader {
  const resources: SegmentHeader['resources'] = {};
  for (const u of uploads) {
    const r = (resources[u.type] ??= { count: 0 });
    r.count++;
    if ('end_time' in u && (!r.lastEnd || u.end_time > r.lastEnd)) r.lastEnd = u.end_time;
  }
  return { resources };
}

export class UploadQueue {
  constructor(private readonly storage: StoragePort) {}

  private async segments(): Promise<string[]> {
    return (await this.storage.getAllKeys()).filter((k) => k.startsWith(PREFIX)).sort();
  }

  private async read(key: string): Promise<{ header: SegmentHeader; json: string; count: number }> {
    const raw = (await this.storage.getItem(key)) ?? '';
    const newline = raw.indexOf('\n');
    if (newline >= 0) return { header: JSON.parse(raw.slice(0, newline)) as SegmentHeader, json: raw.slice(newline + 1), count: countOf(key) ?? 0 };
    // A segment written before headers: the records alone.
    const uploads = raw ? (JSON.parse(raw) as Upload[]) : [];
    return { header: headerOf(uploads), json: raw || '[]', count: uploads.length };
  }

  private async write(seq: number, uploads: Upload[]): Promise<void> {
    await this.storage.setItem(keyOf(seq, uploads.length), `${JSON.stringify(headerOf(uploads))}\n${JSON.stringify(uploads)}`);
  }

  async push(uploads: Upload[]): Promise<void> {
    if (!uploads.length) return;
    const keys = await this.segments();
    const last = keys[keys.length - 1];
    let seq = last ? seqOf(last) + 1 : 0;
    // What the queued segments leave of their last request is filled first, so requests stay whole.
    let queued = 0;
    for (const key of keys) queued += countOf(key) ?? (await this.read(key)).count;
    let i = 0;
    const gap = (MAX_BATCH - (queued % MAX_BATCH)) % MAX_BATCH;
    if (gap) {
      await this.write(seq++, uploads.slice(0, gap));
      i = gap;
    }
    for (; i < uploads.length; i += MAX_BATCH) await this.write(seq++, uploads.slice(i, i + MAX_BATCH));
  }

  /** The oldest segments that together hold at most one request's records (at least one segment). */
  async next(): Promise<Batch | undefined> {
    const batch: Batch = { keys: [], count: 0, json: '', headers: [] };
    const parts: string[] = [];
    for (const key of await this.segments()) {
      const known = countOf(key);
      if (batch.keys.length && known !== undefined && batch.count + known > MAX_BATCH) break;
      const segment = await this.read(key);
      if (batch.keys.length && batch.count + segment.count > MAX_BATCH) break;
      batch.keys.push(key);
      batch.count += segment.count;
      batch.headers.push(segment.header);
      const inner = segment.json.slice(1, -1);
      if (inner) parts.push(inner);
    }
    if (!batch.keys.length) return undefined;
    batch.json = `[${parts.join(',')}]`;
    return batch;
  }

  /** Replaces a batch's segments by what is left of it (after the platform rejected some records). */
  async replace(batch: Batch, uploads: Upload[]): Promise<void> {
    const seq = seqOf(batch.keys[0]);
    // The rest is written before the batch is removed: a kill in between sends some records twice, never none.
    if (uploads.length) await this.write(seq, uploads);
    const kept = uploads.length ? keyOf(seq, uploads.length) : undefined;
    for (const key of batch.keys) if (key !== kept) await this.storage.removeItem(key);
  }

  async ack(batch: Batch): Promise<void> {
    for (const key of batch.keys) await this.storage.removeItem(key);
  }

  async length(): Promise<number> {
    let n = 0;
    for (const key of await this.segments()) n += countOf(key) ?? (await this.read(key)).count;
    return n;
  }

  async clear(): Promise<void> {
    for (const key of await this.segments()) await this.storage.removeItem(key);
  }
}
