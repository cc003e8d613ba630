/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that
 * crosses 1,000 pages: that commit copies the pages into the database file and waits for two
 * fsyncs, holding the event loop (and every customer's request behind it) for milliseconds. Here the
 * connections of this process leave checkpointing alone (`wal_autocheckpoint = 0`) and one worker
 * thread, with its own connection to each file, runs a PASSIVE checkpoint once as much is waiting
 * as SQLite's own threshold (4 MB of WAL frames): it copies what was committed without blocking
 * writers or readers, and the next commit that finds everything copied starts the WAL over.
 * Durability is the same: a commit is in the WAL either way. Not more often: each checkpoint ends
 * in fsyncs, and frequent ones (every 50 ms) stalled the other thread's writes on the file system
 * (bench/noisy-neighbour.bench.mjs: a neighbour's single-record ingestion p99 8 → 17 ms).
 *
 * How much is waiting comes from the WAL index (the `-shm` file, https://www.sqlite.org/walformat.html):
 * mxFrame (frames in the WAL) less nBackfill (frames already copied), times the page size; a read
 * of its first 136 bytes every 50 ms, where a checkpoint would read the index and more.
 *
 * If the thread cannot start or dies, each connection goes back to SQLite's own checkpoints, so the
 * WAL never grows without bound.
 */
import type Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { startHelperThread } from './helper-thread';

/** The default autocheckpoint of SQLite, restored when the thread is gone. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
const INTERVAL_MS = 50;
/** SQLite's own threshold: 1,000 pages of 4 KB. */
const THRESHOLD_BYTES = 4 * 1024 * 1024;

// CommonJS source for the thread (startHelperThread).
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
/** file → { db, shm }: the thread's connection and the WAL index it reads, both kept open. */
const open = new Map();
const header = Buffer.alloc(136);
const littleEndian = require('node:os').endianness() === 'LE';
const u16 = (at) => (littleEndian ? header.readUInt16LE(at) : header.readUInt16BE(at));
const u32 = (at) => (littleEndian ? header.readUInt32LE(at) : header.readUInt32BE(at));
/** Bytes of committed frames not yet copied into the database file; Infinity when the index cannot be read. */
function waiting(file, entry) {
  try {
    // Opened on first need and kept: a new database has no index until its first transaction.
    if (entry.shm === undefined) entry.shm = fs.openSync(file + '-shm', 'r');
    if (fs.readSync(entry.shm, header, 0, 136, 0) < 136) return 0;
  } catch (e) {
    return e && e.code === 'ENOENT' ? 0 : Infinity;
  }
  // Native byte order, as SQLite writes it. A page size of 65536 is stored as 1.
  const raw = u16(14);
  const pageSize = raw === 1 ? 65536 : raw;
  const frames = u32(16) - u32(96);
  return frames > 0 ? frames * pageSize : 0;
}
parentPort.on('message', (m) => {
  if (m.type === 'watch') {
    try {
      const db = new Database(m.file, { fileMustExist: true });
      // Never wait on a lock here: a busy checkpoint is simply tried again on the next tick.
      db.pragma('busy_timeout = 0');
      open.set(m.file, { db, shm: undefined });
    } catch (e) {
      parentPort.postMessage({ type: 'failed', file: m.file });
    }
  } else if (m.type === 'unwatch') {
    forget(m.file);
    parentPort.postMessage({ type: 'unwatched', id: m.id });
  }
});
function forget(file) {
  const entry = open.get(file);
  open.delete(file);
  if (!entry) return;
  try { if (entry.shm !== undefined) fs.closeSync(entry.shm); } catch (e) { /* nothing left to do */ }
  try { entry.db.close(); } catch (e) { /* already gone with its file */ }
}
setInterval(() => {
  for (const [file, entry] of open) {
    if (waiting(file, entry) < workerData.thresholdBytes) continue;
    try { entry.db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) {
      // SQLITE_BUSY: another checkpoint holds the lock; the next tick tries again.
      if (!(e && e.code === 'SQLITE_BUSY')) {
        forget(file);
        parentPort.postMessage({ type: 'failed', file });
      }
    }
  }
}, workerData.intervalMs);
`;

export class BackgroundCheckpoints {
  private worker: Worker | undefined;
  private failed = false;
  private readonly watched = new Map<string, Database.Database>();
  private readonly pending = new Map<number, () => void>();
  private nextId = 1;

  /** Checkpoints `db` (a file opened on this thread) in the background from now on. */
  watch(db: Database.Database): void {
    const worker = this.start();
    if (!worker) return;
    db.pragma('wal_autocheckpoint = 0');
    this.watched.set(db.name, db);
    worker.postMessage({ type: 'watch', file: db.name });
  }

  /** Resolves once the thread has closed its connection to `db`'s file. */
  unwatch(db: Database.Database): Promise<void> {
    const file = db.name;
    if (!this.watched.delete(file) || !this.worker) return Promise.resolve();
    const id = this.nextId++;
    const worker = this.worker;
    // Held while a caller awaits the reply: an unref'd thread would let the process exit mid-await.
    worker.ref();
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ type: 'unwatch', file, id });
    });
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    const workerData = { driver: require.resolve('better-sqlite3'), intervalMs: INTERVAL_MS, thresholdBytes: THRESHOLD_BYTES };
    this.worker = startHelperThread<{ type: string; file?: string; id?: number }>(WORKER_SOURCE, {
      workerData,
      onMessage: (m) => {
        if (m.type === 'unwatched' && m.id !== undefined) this.settle(m.id);
        if (m.type === 'failed' && m.file) this.fallBack(m.file);
      },
      // Only an exit nobody asked for is a failure (retire() ends a thread with nothing to watch).
      onLost: (worker) => this.worker === worker && this.stop(),
    });
    this.failed = !this.worker;
    return this.worker;
  }

  private settle(id: number): void {
    this.pending.get(id)?.();
    this.pending.delete(id);
    if (this.pending.size > 0) return;
    this.worker?.unref();
    if (this.watched.size === 0) this.retire();
  }

  /** Nothing left to watch (all closed): the thread ends; the next file opened starts another. */
  private retire(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  /** One file the thread cannot checkpoint: SQLite checkpoints it again on commit. */
  private fallBack(file: string): void {
    const db = this.watched.get(file);
    this.watched.delete(file);
    if (db?.open) db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  }

  /** The thread is gone: every connection checkpoints on its own again; nobody waits for it. */
  private stop(): void {
    this.failed = true;
    this.worker = undefined;
    for (const file of [...this.watched.keys()]) this.fallBack(file);
    for (const id of [...this.pending.keys()]) this.settle(id);
  }
}

/** One thread per process, started by the first file opened. */
export const backgroundCheckpoints = new BackgroundCheckpoints();
