/**
 * The sync engine: reads each feed's changes after its persisted cursor, maps them, queues the
 * uploads (persisted before the cursor advances, so a kill loses nothing) and sends the queue in
 * batches of at most 1,000 records. No React Native import: it runs in Node and on the phone alike.
 */
import { bucketDeletion, buildBucket } from '../mapping/buckets';
import { RESOURCES, type ResourceType, type SourceType, type Upload, type WellstreamRecord } from '../records';
import { BucketStore } from './bucket-store';
import { MobileClient } from './client';
import { SourceDisconnectedError, UnauthorizedError, WellstreamMobileError } from './errors';
import { CLOUD_SOURCE_APPS, cloudSourceOf } from './not-twice';
import type { FetchLike, HealthSource, StoragePort } from './ports';
import { PendingUploads, CURSOR } from './pending';
import { MAX_BATCH, UploadQueue } from './queue';
import { clearStatus, loadStatus, saveStatus, type PersistedStatus, type SyncStatus } from './status';

export interface MobileConfig {
  /** The API's base URL, e.g. `https://api.example.com/v2`. */
  baseUrl: string;
  /** How far back the first sync reads (Health Connect reads 30 days before its first permission unless the history permission is granted; connect() asks for it when this reaches further). */
  historyDays?: number;
  /** Skip samples written by apps whose cloud source the user connected in Wellstream (default true). */
  skipConnectedCloudSources?: boolean;
  /** The cloud sources the user connected (the customer's backend knows them from `GET user`). */
  connectedCloudSources?: string[];
  /** The writing apps of each cloud source (default `CLOUD_SOURCE_APPS`), for an app id seen on a device that the list lacks. */
  cloudSourceApps?: Record<string, readonly string[]>;
  maxAttempts?: number;
  backoffMs?: number;
  maxRetryAfterMs?: number;
}

export interface MobileDeps {
  storage: StoragePort;
  source: HealthSource;
  fetch?: FetchLike;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

export interface SyncResult {
  queued: number;
  uploaded: number;
  requests: number;
  skippedNotTwice: number;
}

interface Connection {
  token: string;
  resources: ResourceType[];
  connectedAt: string;
}

// The core is built without DOM or Node types; React Native, browsers and Node all have these two.
declare const setTimeout: (fn: () => void, ms: number) => unknown;
const globalFetch = () => (globalThis as { fetch?: FetchLike }).fetch;

const CONNECTION = 'wellstream:connection';
const DAY = 86_400_000;
/** Samples held in open buckets before a commit writes them out. */
const OPEN_PARTS_BUDGET = 5_000;

export class WellstreamMobile {
  private config?: Required<Omit<MobileConfig, 'connectedCloudSources'>> & { connectedCloudSources: string[] };
  private running?: Promise<SyncResult>;
  private readonly queue: UploadQueue;
  private readonly buckets: BucketStore;
  private readonly now: () => Date;

  constructor(private readonly deps: MobileDeps) {
    this.queue = new UploadQueue(deps.storage);
    this.buckets = new BucketStore(deps.storage);
    this.now = deps.now ?? (() => new Date());
  }

  configure(config: MobileConfig): void {
    this.config = {
      historyDays: 30,
      skipConnectedCloudSources: true,
      maxAttempts: 5,
      backoffMs: 1000,
      maxRetryAfterMs: 120_000,
      cloudSourceApps: CLOUD_SOURCE_APPS,
      ...config,
      connectedCloudSources: config.connectedCloudSources ?? [],
    };
  }

  private get client(): MobileClient {
    const c = this.requireConfig();
    const fetchImpl = this.deps.fetch ?? globalFetch();
    if (!fetchImpl) throw new WellstreamMobileError('not_configured', 'No fetch: pass one in the dependencies.');
    return new MobileClient({ baseUrl: c.baseUrl, fetch: fetchImpl, maxAttempts: c.maxAttempts, backoffMs: c.backoffMs, maxRetryAfterMs: c.maxRetryAfterMs, sleep: this.deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))) });
  }

  private requireConfig() {
    if (!this.config) throw new WellstreamMobileError('not_configured', 'Call configure({ baseUrl }) first.');
    return this.config;
  }

  /**
   * Links this phone to the user (their `mobile.token` from `GET user`), asks the store for read
   * permission on these resources and tells the platform the phone source is connected.
   */
  async connect(mobileToken: string, options: { resources?: ResourceType[] } = {}): Promise<SyncStatus> {
    const config = this.requireConfig();
    const resources = options.resources ?? [...RESOURCES];
    const previous = await this.connection();
    const connectedAt = previous?.connectedAt ?? this.now().toISOString();
    const grantedAt = new Date(connectedAt);
    const answer = await this.deps.source.requestPermissions(resources, { since: new Date(grantedAt.getTime() - config.historyDays * DAY), grantedAt });
    if (previous && previous.token !== mobileToken) await this.resetCursors();
    const status = await loadStatus(this.deps.storage);
    delete status.stopped;
    delete status.lastError;
    if (answer?.history) status.history = answer.history;
    else delete status.history;
    const platform = await this.client.connectSource(mobileToken, this.deps.source.store);
    status.connectEndpoint = platform.available ? 'available' : 'pending';
    const cloud = (platform.body as { cloud_sources?: unknown } | undefined)?.cloud_sources;
    if (Array.isArray(cloud)) status.connectedCloudSources = cloud.filter((c): c is string => typeof c === 'string');
    await saveStatus(this.deps.storage, status);
    await this.deps.storage.setItem(CONNECTION, JSON.stringify({ token: mobileToken, resources, connectedAt } satisfies Connection));
    return this.status();
  }

  /** Reads what changed in the store, queues it and sends the queue. One sync at a time. */
  sync(): Promise<SyncResult> {
    this.running ??= this.runSync().finally(() => (this.running = undefined));
    return this.running;
  }

  private async runSync(): Promise<SyncResult> {
    const config = this.requireConfig();
    const conn = await this.connection();
    if (!conn) throw new WellstreamMobileError('not_connected', 'Call connect(mobileToken) first.');
    const status = await loadStatus(this.deps.storage);
    // Both stops last until connect(): retrying would only repeat the refusal.
    if (status.stopped === 'unauthorized') throw new UnauthorizedError();
    if (status.stopped === 'source_disconnected') throw new SourceDisconnectedError(this.deps.source.store);
    const result: SyncResult = { queued: 0, uploaded: 0, requests: 0, skippedNotTwice: 0 };
    try {
      // What an earlier sync queued goes first, so the order of versions is kept.
      await this.flush(conn.token, status, result, false);
      await this.buckets.load();
      // Fixed at connect(): the window a first sync reads, and what later syncs keep watching.
      const since = new Date(Date.parse(conn.connectedAt) - config.historyDays * DAY);
      const skip = config.skipConnectedCloudSources ? new Set([...config.connectedCloudSources, ...(status.connectedCloudSources ?? [])]) : new Set<string>();
      const pending = new PendingUploads(this.queue, this.deps.storage);
      for (const feed of this.deps.source.feeds(conn.resources)) {
        let cursor = (await this.deps.storage.getItem(CURSOR + feed)) ?? undefined;
        for (;;) {
          const page = await this.deps.source.readChanges(feed, cursor, since);
          if (page.restart) {
            await this.deps.storage.removeItem(CURSOR + feed);
            cursor = undefined;
            continue;
          }
          for (const m of page.mapped) {
            const cloud = cloudSourceOf('record' in m ? m.record.source.device : m.part.device, config.cloudSourceApps);
            if (cloud && skip.has(cloud)) result.skippedNotTwice++;
            else if ('record' in m) pending.add(m.record.type === 'workout' ? await this.withHeartRate(m.record, skip, config.cloudSourceApps) : m.record);
            else {
              // No await when the part's bucket is open (most parts): a month is ~80,000 of them.
              const reading = this.buckets.put(m.part);
              if (reading) await reading;
            }
          }
          for (const id of page.deletedIds) if (!(await this.buckets.remove(id))) for (const stub of this.deletionsFor(feed, id)) pending.add(stub);
          pending.cursor(feed, page.cursor);
          // A full batch is sent as soon as it is queued: a first sync never holds a month of uploads.
          if (await this.commit(pending, false)) await this.flush(conn.token, status, result, true);
          cursor = page.cursor;
          if (!page.more) break;
        }
      }
      await this.commit(pending, true);
      result.queued = pending.queued;
      await this.flush(conn.token, status, result, false);
      status.skippedNotTwice += result.skippedNotTwice;
      status.lastSyncAt = this.now().toISOString();
      delete status.lastError;
      return result;
    } catch (error) {
      const e = error instanceof WellstreamMobileError ? error : new WellstreamMobileError('store', (error as Error).message);
      status.lastError = { code: e.code, message: e.message, at: this.now().toISOString() };
      if (e instanceof UnauthorizedError) status.stopped = 'unauthorized';
      if (e instanceof SourceDisconnectedError) status.stopped = 'source_disconnected';
      throw e;
    } finally {
      await saveStatus(this.deps.storage, status);
    }
  }

  /**
   * Turns the touched buckets into records and commits: buckets, then the queue, then the cursors
   * (a kill in between re-reads and rebuilds, never loses). Waits until a request's worth or a
   * memory budget of open buckets is reached, so a bucket touched by many pages is built once.
   */
  private async commit(pending: PendingUploads, force: boolean): Promise<boolean> {
    if (!force && pending.size + this.buckets.openBuckets < MAX_BATCH && this.buckets.openParts < OPEN_PARTS_BUDGET) return false;
    // One bucket at a time: its record is made, queued and its parts let go before the next.
    for (const [key, bucket] of this.buckets.changed()) pending.add(buildBucket(key, bucket) ?? bucketDeletion(key));
    await this.buckets.flush();
    await pending.commit();
    return true;
  }

  /**
   * A workout's average and maximum heart rate, from the heart-rate samples the store holds for its
   * window (read for it, whether or not they were synced; without such a read, from those synced).
   * Samples written by the app of a connected cloud source are left out, as everywhere.
   */
  private async withHeartRate(record: Extract<WellstreamRecord, { type: 'workout' }>, skip: Set<string>, apps: Record<string, readonly string[]>): Promise<WellstreamRecord> {
    if (record.metrics.some((m) => m.type === 'avg_heart_rate')) return record;
    const read = this.deps.source.heartRateBetween;
    const values = read
      ? // end_time is cut to the second: the workout ends within the second after it.
        (await read.call(this.deps.source, new Date(record.start_time), new Date(Date.parse(record.end_time) + 999))).flatMap((s) => {
          const cloud = cloudSourceOf(s.app === undefined ? undefined : { id: s.app }, apps);
          return cloud && skip.has(cloud) ? [] : [s.bpm];
        })
      : await this.buckets.seriesBetween(record.source.type, 'heart_rate', record.start_time, record.end_time);
    if (!values.length) return record;
    const avg = Math.round(values.reduce((a, b) => a + b, 0) / values.length);
    const max = values.reduce((a, b) => (b > a ? b : a), values[0]);
    return { ...record, metrics: [...record.metrics, { type: 'avg_heart_rate', unit: 'bpm', value: avg, origin: 'device' }, { type: 'max_heart_rate', unit: 'bpm', value: max, origin: 'device' }] };
  }

  /** A store deletion of a sample that is a record of its own: its type is the feed's. */
  private deletionsFor(feed: string, id: string): Upload[] {
    const type = this.deps.source.resourceOf(feed);
    const sources: SourceType[] = this.deps.source.store === 'health_connect' ? ['health_connect', 'samsung_health'] : ['apple_health'];
    return sources.map((s) => ({ type, source: { type: s }, log_id: id, deleted: true as const }));
  }

  /** Sends the queue oldest first; `fullOnly` stops once less than a whole request is queued (more may join it). */
  private async flush(token: string, status: PersistedStatus, result: SyncResult, fullOnly: boolean): Promise<void> {
    while (!fullOnly || (await this.queue.length()) >= MAX_BATCH) {
      const batch = await this.queue.next();
      if (!batch) return;
      const answer = await this.client.postRecords(token, batch.json, batch.count, this.deps.source.store);
      result.requests += answer.requests;
      if (!answer.ok) {
        // Rare: only then are the records parsed, to drop the ones the platform named.
        const rejected = new Set(answer.rejected);
        status.dropped += rejected.size;
        await this.queue.replace(batch, (JSON.parse(batch.json) as Upload[]).filter((_, i) => !rejected.has(i)));
        continue;
      }
      await this.queue.ack(batch);
      result.uploaded += batch.count;
      const at = this.now().toISOString();
      status.lastUploadAt = at;
      for (const header of batch.headers) {
        for (const [type, sent] of Object.entries(header.resources) as [ResourceType, { count: number; lastEnd?: string }][]) {
          const r = (status.resources[type] ??= { uploaded: 0 });
          r.uploaded += sent.count;
          r.lastUploadAt = at;
          if (sent.lastEnd && (!r.lastRecordTime || sent.lastEnd > r.lastRecordTime)) r.lastRecordTime = sent.lastEnd;
        }
      }
    }
  }

  async status(): Promise<SyncStatus> {
    const [persisted, conn, queueLength] = await Promise.all([loadStatus(this.deps.storage), this.connection(), this.queue.length()]);
    return { ...persisted, connected: !!conn && !persisted.stopped, queueLength };
  }

  /** Stops syncing and forgets the token, the cursors, the buckets and the queue. */
  async disconnect(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.resetCursors();
    await this.queue.clear();
    await clearStatus(this.deps.storage);
    await this.deps.storage.removeItem(CONNECTION);
  }

  private async resetCursors(): Promise<void> {
    for (const key of await this.deps.storage.getAllKeys()) if (key.startsWith(CURSOR)) await this.deps.storage.removeItem(key);
    await this.buckets.clear();
  }

  private async connection(): Promise<Connection | undefined> {
    const raw = await this.deps.storage.getItem(CONNECTION);
    return raw ? (JSON.parse(raw) as Connection) : undefined;
  }
}
