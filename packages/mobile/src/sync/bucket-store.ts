/**
 * The parts of every bucket (a day's summary, an hour's series, a night's sleep), persisted one
 * storage key per bucket, and an id → bucket index so a store deletion finds its bucket. Loaded
 * once per sync; only the buckets a sync touched are written back.
 */
import { bucketKey, type Bucket } from '../mapping/buckets';
import type { Part } from '../mapping/entries';
import type { StoragePort } from './ports';

const PREFIX = 'wellstream:bucket:';

export class BucketStore {
  private buckets = new Map<string, Bucket>();
  private index = new Map<string, string[]>();
  private dirty = new Set<string>();
  private loaded = false;

  constructor(private readonly storage: StoragePort) {}

  async load(): Promise<void> {
    if (this.loaded) return;
    for (const key of (await this.storage.getAllKeys()).filter((k) => k.startsWith(PREFIX))) {
      const bucket = JSON.parse((await this.storage.getItem(key)) ?? '{}') as Bucket;
      const name = key.slice(PREFIX.length);
      this.buckets.set(name, bucket);
      for (const id of Object.keys(bucket)) this.addIndex(id, name);
    }
    this.loaded = true;
  }

  private addIndex(id: string, name: string) {
    const at = this.index.get(id);
    if (!at) this.index.set(id, [name]);
    else if (!at.includes(name)) at.push(name);
  }

  /** Adds or replaces a part; a part that moved (an edited time) leaves its old bucket. */
  put(part: Part): void {
    const name = bucketKey(part);
    for (const old of this.index.get(part.id) ?? []) {
      if (old !== name && this.buckets.get(old)?.[part.id]) {
        delete this.buckets.get(old)![part.id];
        this.dirty.add(old);
      }
    }
    const bucket = this.buckets.get(name) ?? {};
    bucket[part.id] = part;
    this.buckets.set(name, bucket);
    this.index.set(part.id, [name]);
    this.dirty.add(name);
  }

  /** Removes every part of a deleted sample (its own id and its derived ids); answers whether any was held. */
  remove(sampleId: string): boolean {
    let found = false;
    for (const id of [sampleId, `${sampleId}#i`]) {
      for (const name of this.index.get(id) ?? []) {
        delete this.buckets.get(name)?.[id];
        this.dirty.add(name);
        found = true;
      }
      this.index.delete(id);
    }
    // Health Connect series parts are `<record id>#<n>`.
    if (!found) {
      for (const [id, names] of this.index) {
        if (!id.startsWith(`${sampleId}#`)) continue;
        for (const name of names) {
          delete this.buckets.get(name)?.[id];
          this.dirty.add(name);
        }
        this.index.delete(id);
        found = true;
      }
    }
    return found;
  }

  /** The buckets changed since the last flush, with their parts. */
  changed(): [string, Bucket][] {
    return [...this.dirty].map((name) => [name, this.buckets.get(name) ?? {}]);
  }

  async flush(): Promise<void> {
    for (const name of this.dirty) {
      const bucket = this.buckets.get(name);
      if (bucket && Object.keys(bucket).length) await this.storage.setItem(PREFIX + name, JSON.stringify(bucket));
      else {
        this.buckets.delete(name);
        await this.storage.removeItem(PREFIX + name);
      }
    }
    this.dirty.clear();
  }

  async clear(): Promise<void> {
    for (const key of (await this.storage.getAllKeys()).filter((k) => k.startsWith(PREFIX))) await this.storage.removeItem(key);
    this.buckets.clear();
    this.index.clear();
    this.dirty.clear();
    this.loaded = false;
  }
}
