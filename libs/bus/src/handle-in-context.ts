/**
 * Runs a consumer's handler inside the request context of the message that caused it, so its logs
 * carry the request id of the call that published it (both adapters).
 */
import { runWithRequestContext } from '@wellstream/logging';
import type { LogMessage } from './event-log.port';
import { REQUEST_ID_HEADER } from './event-log.port';
import { unshared } from './read-batch';
import type { ReadBatch } from './read-batch';

export function handleInContext(handle: (m: LogMessage, batch: ReadBatch) => Promise<void>, m: LogMessage, batch: ReadBatch = unshared): Promise<void> {
  const requestId = m.headers[REQUEST_ID_HEADER];
  return requestId ? runWithRequestContext({ requestId }, () => handle(m, batch)) : handle(m, batch);
}
