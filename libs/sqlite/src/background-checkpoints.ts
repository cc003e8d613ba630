/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that
 * crosses 1,000 pages: that commit copies the pages into the database file and waits for two
 * fsyncs, holding the event loop (and every customer's request behind it) for milliseconds. Here the
 * connections of this process leave checkpointing alone (`wal_autocheckpoint = 0`) and one worker
 * thread, with its own connection to each file, runs a PASSIVE checkpoint every few milliseconds:
 * it copies what was committed without blocking writers or readers, and the next commit that finds
 * everything copied starts the WAL over. Durability is the same: a commit is in the WAL either way.
 *
 * If the thread cannot start or dies, each connection goes back to SQLite's own checkpoints, so the
 * WAL never grows without bound.
 */
import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';

/** The default autocheckpoint of SQLite, restored when the thread is gone. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
const INTERVAL_MS = 50;

// CommonJS source for the thread (eval'd, so it runs the same under ts-jest/swc and from dist).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const open = new Map();
parentPort.on('message', (m) => {
  if (m.type === 'watch') {
    try {
      const db = new Database(m.file, { fileMustExist: true });
      // Never wait on a lock here: a busy checkpoint is simply tried again on the next tick.
      db.pragma('busy_timeout = 0');
      open.set(m.file, db);
    } catch (e) {
      parentPort.postMessage({ type: 'failed', file: m.file, message: String((e && e.message) || e) });
    }
  } else if (m.type === 'unwatch') {
    const db = open.get(m.file);
    open.delete(m.file);
    try { if (db) db.close(); } catch (e) { /* already gone with its file */ }
    parentPort.postMessage({ type: 'unwatched', id: m.id });
  }
});
setInterval(() => {
  for (const [file, db] of open) {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) {
      // SQLITE_BUSY: another checkpoint holds the lock; the next tick tries again.
      if (!(e && e.code === 'SQLITE_BUSY')) {
        open.delete(file);
        try { db.close(); } catch (_) { /* nothing left to do */ }
        parentPort.postMessage({ type: 'failed', file, message: String((e && e.message) || e) });
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

  /** Checkpoints `file` (opened as `db` on this thread) in the background from now on. */
  watch(file: string, db: Database.Database): void {
    const worker = this.start();
    if (!worker) return;
    db.pragma('wal_autocheckpoint = 0');
    this.watched.set(file, db);
    worker.postMessage({ type: 'watch', file });
  }

  /** Resolves once the thread has closed its connection to `file`. */
  unwatch(file: string): Promise<void> {
    if (!this.watched.delete(file) || !this.worker) return Promise.resolve();
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ type: 'unwatch', file, id });
    });
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), intervalMs: INTERVAL_MS } });
      worker.on('message', (m: { type: string; file?: string; id?: number }) => {
        if (m.type === 'unwatched' && m.id !== undefined) this.settle(m.id);
        if (m.type === 'failed' && m.file) this.fallBack(m.file);
      });
      // Only an exit nobody asked for is a failure (retire() ends a thread with nothing to watch).
      worker.on('error', () => this.worker === worker && this.stop());
      worker.on('exit', () => this.worker === worker && this.stop());
      // Never what keeps a process alive (after the listeners: adding one refs the thread again).
      worker.unref();
      this.worker = worker;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }

  private settle(id: number): void {
    this.pending.get(id)?.();
    this.pending.delete(id);
    if (this.watched.size === 0 && this.pending.size === 0) this.retire();
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
