/**
 * The parts of every bucket (a day's summary, an hour's series, a night's sleep), persisted one
 * storage key per bucket in a compact form, and an in-memory index sample id → bucket so a store
 * deletion (which names only the sample) finds its bucket. Buckets are read from storage when a
 * sync touches them and dropped once written back: memory holds the index and one page's buckets,
 * not 30 days of samples.
 */
import { bucketKey, type Bucket } from '../mapping/buckets';
import type { Part } from '../mapping/entries';
import type { Device } from '../records';
import type { StoragePort } from './ports';

const PREFIX = 'wellstream:bucket:';

/** metric, unit, value, start, end, offset (null when the sample had no zone). */
type Entry = [string, string, number, string, string, number | null];
interface Stored {
  device?: Device;
  parts: Record<string, Entry>;
}

const toEntry = (p: Part): Entry => [p.metric, p.unit, p.value, p.start, p.end, p.offset ?? null];

function toBucket(name: string, stored: Stored): Bucket {
  const [kind, source] = name.split('|') as [Part['kind'], Part['source']];
  const bucket: Bucket = {};
  for (const [id, [metric, unit, value, start, end, offset]] of Object.entries(stored.parts)) {
    const part: Part = { id, kind, source, metric, unit, value, start, end };
    if (offset !== null) part.offset = offset;
    if (stored.device) part.device = stored.device;
    bucket[id] = part;
  }
  return bucket;
}

export class BucketStore {
  private readonly index = new Map<string, string>();
  /** One string per bucket name, shared by every index entry of that bucket (a month is ~80,000 entries, ~2,000 names). */
  private readonly names = new Map<string, string>();
  private readonly open = new Map<string, Stored>();
  private loaded = false;
  /** Parts put since the last flush (what the open buckets hold, roughly). */
  openParts = 0;

  constructor(private readonly storage: StoragePort) {}

  /** Builds the index from what is persisted (once per process). */
  async load(): Promise<void> {
    if (this.loaded) return;
    for (const key of (await this.storage.getAllKeys()).filter((k) => k.startsWith(PREFIX))) {
      const name = this.intern(key.slice(PREFIX.length));
      for (const id of Object.keys((JSON.parse((await this.storage.getItem(key)) ?? '{"parts":{}}') as Stored).parts)) this.index.set(id, name);
    }
    this.loaded = true;
  }

  private async get(name: string): Promise<Stored> {
    let stored = this.open.get(name);
    if (!stored) {
      const raw = await this.storage.getItem(PREFIX + name);
      stored = raw ? (JSON.parse(raw) as Stored) : { parts: {} };
      this.open.set(name, stored);
    }
    return stored;
  }

  private intern(name: string): string {
    const known = this.names.get(name);
    if (known !== undefined) return known;
    this.names.set(name, name);
    return name;
  }

  /** Adds or replaces a part; a part that moved (an edited time) leaves its old bucket. Synchronous when its bucket is open. */
  put(part: Part): Promise<void> | undefined {
    const name = this.intern(bucketKey(part));
    const old = this.index.get(part.id);
    const open = this.open.get(name);
    if (open && (old === undefined || old === name)) {
      this.add(open, name, part);
      return undefined;
    }
    return (async () => {
      if (old !== undefined && old !== name) delete (await this.get(old)).parts[part.id];
      this.add(await this.get(name), name, part);
    })();
  }

  private add(stored: Stored, name: string, part: Part): void {
    stored.parts[part.id] = toEntry(part);
    this.openParts++;
    if (part.device) stored.device = part.device;
    this.index.set(part.id, name);
  }

  /** Removes every part of a deleted sample (its own id and the ids derived from it); answers whether any was held. */
  async remove(sampleId: string): Promise<boolean> {
    let found = false;
    const drop = async (id: string) => {
      const name = this.index.get(id);
      if (name === undefined) return;
      delete (await this.get(name)).parts[id];
      this.index.delete(id);
      found = true;
    };
    await drop(sampleId);
    await drop(`${sampleId}#i`);
    // Health Connect series parts are `<record id>#<n>`.
    for (let n = 0; this.index.has(`${sampleId}#${n}`); n++) await drop(`${sampleId}#${n}`);
    return found;
  }

  /** Values of one intraday metric between two instants (the hourly buckets they fall in). */
  async seriesBetween(source: Part['source'], metric: string, start: string, end: string): Promise<number[]> {
    const values: number[] = [];
    for (let t = Date.parse(start.slice(0, 13) + ':00:00Z'); t <= Date.parse(end); t += 3_600_000) {
      const name = `intraday|${source}|${metric}|${new Date(t).toISOString().slice(0, 13)}`;
      const stored = this.open.get(name) ?? (JSON.parse((await this.storage.getItem(PREFIX + name)) ?? '{"parts":{}}') as Stored);
      for (const [, , value, at] of Object.values(stored.parts)) if (at >= start && at <= end) values.push(value);
    }
    return values;
  }

  get openBuckets(): number {
    return this.open.size;
  }

  /** The buckets touched since the last flush, as parts, one at a time (only one bucket's parts are made at once). */
  *changed(): Generator<[string, Bucket]> {
    for (const [name, stored] of this.open) yield [name, toBucket(name, stored)];
  }

  /** Writes the touched buckets back (an empty one is removed) and lets them go. */
  async flush(): Promise<void> {
    for (const [name, stored] of this.open) {
      if (Object.keys(stored.parts).length) await this.storage.setItem(PREFIX + name, JSON.stringify(stored));
      else await this.storage.removeItem(PREFIX + name);
    }
    this.open.clear();
    this.openParts = 0;
  }

  async clear(): Promise<void> {
    for (const key of (await this.storage.getAllKeys()).filter((k) => k.startsWith(PREFIX))) await this.storage.removeItem(key);
    this.index.clear();
    this.names.clear();
    this.open.clear();
    this.loaded = false;
  }
}
