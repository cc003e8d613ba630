/**
 * The records service's express app: its routes on the shared app factory.
 */
import type express from 'express';
import { createServiceApp } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';

export interface RecordsAppDeps {
  logger: Logger;
  health: () => Promise<boolean>;
}

export function createRecordsApp(deps: RecordsAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    routes: () => {},
  });
}
