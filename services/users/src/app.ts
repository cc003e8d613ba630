/**
 * The users service's express app: its routes on the shared app factory.
 */
import type express from 'express';
import { createServiceApp } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';

export interface UsersAppDeps {
  logger: Logger;
  health: () => Promise<boolean>;
}

export function createUsersApp(deps: UsersAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    routes: () => {},
  });
}
