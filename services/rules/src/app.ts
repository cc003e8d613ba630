/**
 * The rules service's express app: its routes on the shared app factory.
 */
import type express from 'express';
import { createServiceApp } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';

export interface RulesAppDeps {
  logger: Logger;
  health: () => Promise<boolean>;
}

export function createRulesApp(deps: RulesAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    routes: () => {},
  });
}
