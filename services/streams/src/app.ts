/**
 * The streams service's express app: its routes on the shared app factory.
 */
import type express from 'express';
import { createServiceApp } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';

export interface StreamsAppDeps {
  logger: Logger;
  health: () => Promise<boolean>;
}

export function createStreamsApp(deps: StreamsAppDeps): express.Express {
  return createServiceApp({
    logger: deps.logger,
    health: deps.health,
    routes: () => {},
  });
}
