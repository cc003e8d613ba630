export { openSqlite, closeSqlite } from './open-sqlite';
export type { OpenSqliteOptions } from './open-sqlite';
export { backgroundCheckpoints } from './background-checkpoints';
