/**
 * Carries the request id (and anything else per request) through async calls without threading
 * it by hand, so every log line of a request names it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const runWithRequestContext = <T>(ctx: RequestContext, fn: () => T): T => storage.run(ctx, fn);
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;
export const newRequestId = (): string => randomUUID();
