/**
 * Distributed entry point: one users service process (node services/users/dist/main.js).
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeUsers } from './compose';
import { loadUsersConfig } from './config';

runServiceMain('users', () => composeUsers(loadUsersConfig()));
