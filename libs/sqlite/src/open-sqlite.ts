/**
 * How every SQLite file of the embedded runtime is opened (document stores and the event log):
 * WAL with NORMAL sync, which keeps commits cheap and survives a process crash (the OS keeps what
 * the process wrote), and checkpoints on a background thread (see background-checkpoints.ts).
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { backgroundCheckpoints } from './background-checkpoints';

export interface OpenSqliteOptions {
  /**
   * Rows deleted soon after they are written (outbox entries, pending push items) leave free pages
   * behind; with incremental auto-vacuum, closing hands them back to the file system. Takes effect
   * on a new database only (an existing one keeps its mode until a VACUUM).
   */
  incrementalVacuum?: boolean;
}

export function openSqlite(file: string, options: OpenSqliteOptions = {}): Database.Database {
  const inMemory = file === ':memory:';
  if (!inMemory) fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // Pages of 16 KB for a new file (an existing one keeps its size): a commit writes each changed page
  // to the WAL with its own system calls, and a record with its outbox entry spans about a 4 KB page.
  db.pragma('page_size = 16384');
  if (options.incrementalVacuum) db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A reset WAL file is cut back to this size, so one burst does not keep a large file for good.
  db.pragma('journal_size_limit = 67108864');
  if (!inMemory) backgroundCheckpoints.watch(db);
  return db;
}

/** Closes a database opened by openSqlite, after the background thread let go of it. */
export async function closeSqlite(db: Database.Database): Promise<void> {
  await backgroundCheckpoints.unwatch(db);
  db.close();
}
