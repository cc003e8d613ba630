/**
 * Checkpoints happen on the background thread (the database file grows while this thread only
 * commits), closing lets go of the file and leaves no WAL, and a lost thread hands checkpointing
 * back to SQLite.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { closeSqlite, openSqlite } from '../src';
import { BackgroundCheckpoints } from '../src/background-checkpoints';

// The waits below allow for a loaded machine (a fresh clone's CI with the servers starting beside
// it once took more than 20 s for the thread's first copy); jest's default 5 s would cut them short.
jest.setTimeout(90_000);

const dirs: string[] = [];
const tempFile = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-sqlite-'));
  dirs.push(dir);
  return path.join(dir, name);
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** `megabytes` of rows committed, 100 KB a transaction. */
function writeRows(db: Database.Database, megabytes: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const tx = db.transaction(() => {
    for (let i = 0; i < 100; i++) insert.run('x'.repeat(1000));
  });
  for (let i = 0; i < megabytes * 10; i++) tx();
}

/** Waits for `pred`; on a timeout the error says what was seen (`state`), so a slow machine and a stuck thread can be told apart. */
async function until(pred: () => boolean, state: () => string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${state()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SQLite checkpoints on a background thread', () => {
  it('leaves checkpointing to the thread, which copies committed pages into the database file past 4 MB', async () => {
    const file = tempFile('a.db');
    const db = openSqlite(file);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // As a service opens its files at start and writes later: the thread sees the new file first.
    await new Promise((r) => setTimeout(r, 200));
    // Below SQLite's own threshold (4 MB waiting) nothing is copied: each checkpoint ends in fsyncs.
    writeRows(db, 1);
    await new Promise((r) => setTimeout(r, 300)); // six of the thread's rounds
    expect(fs.statSync(file).size).toBeLessThan(200_000);
    writeRows(db, 5);
    // Only a checkpoint moves pages from the WAL into the database file; this thread ran none. Once
    // 4 MB wait, the thread copies all there is at that moment (what comes after may stay below).
    const sizes = () => `database ${fs.statSync(file).size} bytes, WAL ${fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0} bytes, wal_autocheckpoint ${String(db.pragma('wal_autocheckpoint', { simple: true }))}`;
    await until(() => fs.statSync(file).size > 3_500_000, sizes);
    // Still the thread's job: it did not give the file back to SQLite (a new file has no WAL index at first).
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 6000 });
    await closeSqlite(db);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('leaves an in-memory database to SQLite (no file for the thread to open)', () => {
    const db = openSqlite(':memory:');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });

  it('never keeps a process alive, nor ends it under an awaited close', () => {
    // The built package, as a program loads it (npm test builds before it runs the tests).
    const dist = path.resolve(__dirname, '../dist');
    const program = `require(${JSON.stringify(dist)}).openSqlite(${JSON.stringify(tempFile('d.db'))}).exec('CREATE TABLE t (x)')`;
    const child = spawnSync(process.execPath, ['-e', program], { timeout: 15_000 });
    expect({ status: child.status, signal: child.signal }).toEqual({ status: 0, signal: null });
    // Nor lets it end early: a program awaiting a close carries on after it.
    const closing = `const s = require(${JSON.stringify(dist)}); const db = s.openSqlite(${JSON.stringify(tempFile('e.db'))}); db.exec('CREATE TABLE t (x)'); s.closeSqlite(db).then(() => console.log('closed'))`;
    const closer = spawnSync(process.execPath, ['-e', closing], { timeout: 15_000, encoding: 'utf8' });
    expect({ status: closer.status, out: closer.stdout.trim() }).toEqual({ status: 0, out: 'closed' });
  });

  it('hands checkpointing back to SQLite when the thread is gone', async () => {
    const checkpoints = new BackgroundCheckpoints();
    const file = tempFile('b.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    checkpoints.watch(db);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await checkpoints['worker']!.terminate();
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1000, () => `wal_autocheckpoint ${String(db.pragma('wal_autocheckpoint', { simple: true }))}`);
    // And a file opened after that checkpoints on its own from the start.
    const other = new Database(tempFile('c.db'));
    other.pragma('journal_mode = WAL');
    checkpoints.watch(other);
    expect(other.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpoints.unwatch(db);
    db.close();
    other.close();
  });
});
