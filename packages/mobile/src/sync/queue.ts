/**
 * The upload queue, persisted in segments of at most one request's worth (1,000 records), so a
 * sync killed at any point loses nothing: a segment is removed only after the platform answered
 * 200 for it. A segment sent but not acknowledged is sent again; the platform identifies records
 * by (source.type, log_id), so the repeat changes nothing.
 */
import type { Upload } from '../records';
import type { StoragePort } from './ports';

export const MAX_BATCH = 1000;
const PREFIX = 'wellstream:queue:';

export class UploadQueue {
  constructor(private readonly storage: StoragePort) {}

  private async segments(): Promise<string[]> {
    return (await this.storage.getAllKeys()).filter((k) => k.startsWith(PREFIX)).sort();
  }

  async push(uploads: Upload[]): Promise<void> {
    if (!uploads.length) return;
    const keys = await this.segments();
    let rest = uploads;
    // The last segment is filled up first, so a sync's small changes of many types make one request.
    const lastKey = keys[keys.length - 1];
    if (lastKey) {
      const last = JSON.parse((await this.storage.getItem(lastKey)) ?? '[]') as Upload[];
      if (last.length < MAX_BATCH) {
        await this.storage.setItem(lastKey, JSON.stringify([...last, ...rest.slice(0, MAX_BATCH - last.length)]));
        rest = rest.slice(MAX_BATCH - last.length);
      }
    }
    let seq = lastKey ? Number(lastKey.slice(PREFIX.length)) + 1 : 0;
    for (let i = 0; i < rest.length; i += MAX_BATCH) {
      await this.storage.setItem(PREFIX + String(seq++).padStart(12, '0'), JSON.stringify(rest.slice(i, i + MAX_BATCH)));
    }
  }

  /** The oldest segment, or undefined when the queue is empty. */
  async head(): Promise<{ key: string; uploads: Upload[] } | undefined> {
    const [key] = await this.segments();
    if (!key) return undefined;
    return { key, uploads: JSON.parse((await this.storage.getItem(key)) ?? '[]') as Upload[] };
  }

  async replace(key: string, uploads: Upload[]): Promise<void> {
    if (uploads.length) await this.storage.setItem(key, JSON.stringify(uploads));
    else await this.storage.removeItem(key);
  }

  async ack(key: string): Promise<void> {
    await this.storage.removeItem(key);
  }

  async length(): Promise<number> {
    let n = 0;
    for (const key of await this.segments()) n += (JSON.parse((await this.storage.getItem(key)) ?? '[]') as unknown[]).length;
    return n;
  }

  async clear(): Promise<void> {
    for (const key of await this.segments()) await this.storage.removeItem(key);
  }
}
