export { openSqlite, closeSqlite } from './open-sqlite';
export type { OpenSqliteOptions } from './open-sqlite';
export { startHelperThread } from './helper-thread';
