/**
 * What one sync has read but not yet queued: uploads keyed by record identity (a bucket rebuilt on
 * several pages is queued once, in its last version) and the feeds' new cursors. Committing writes
 * the uploads to the persisted queue first and the cursors after, so a kill before or during a
 * commit makes the next sync read those changes again (the buckets already hold their samples, so
 * re-reading rebuilds the same records): nothing is lost, and repeats change nothing on the platform.
 */
import type { Upload } from '../records';
import type { StoragePort } from './ports';
import type { UploadQueue } from './queue';

export const CURSOR = 'wellstream:cursor:';

export class PendingUploads {
  private readonly uploads = new Map<string, Upload>();
  private readonly cursors = new Map<string, string>();
  queued = 0;

  constructor(
    private readonly queue: UploadQueue,
    private readonly storage: StoragePort,
  ) {}

  add(upload: Upload): void {
    const key = `${upload.type}|${upload.source.type}|${upload.log_id}`;
    this.uploads.delete(key);
    this.uploads.set(key, upload);
  }

  cursor(feed: string, cursor: string): void {
    this.cursors.set(feed, cursor);
  }

  get size(): number {
    return this.uploads.size;
  }

  async commit(): Promise<void> {
    const uploads = [...this.uploads.values()];
    await this.queue.push(uploads);
    this.queued += uploads.length;
    this.uploads.clear();
    for (const [feed, cursor] of this.cursors) await this.storage.setItem(CURSOR + feed, cursor);
    this.cursors.clear();
  }
}
