export { composeUsers } from './compose';
export { loadUsersConfig, usersConfigSchema } from './config';
export type { UsersConfig } from './config';
