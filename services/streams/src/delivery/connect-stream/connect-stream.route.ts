/**
 * GET /v2/streams/:id/connect — HTTP in/out of connecting to a stream. Errors (404, 422 member
 * limit, 400 bad Last-Event-ID) are answered as JSON before the event stream opens.
 */
import type { IRouter } from 'express';
import { callerOf, route } from '@wellstream/http';
import { parsePosition } from '../event-position';
import { openSse, SseSettings } from '../sse-response';
import { ConnectDeps, prepareStreamConnection } from './connect-stream.usecase';

export function connectStreamRoute(router: IRouter, deps: ConnectDeps, sse: SseSettings): void {
  router.get(
    '/v2/streams/:id/connect',
    route(async (req, res) => {
      const { customerId } = callerOf(req);
      const fromQuery = typeof req.query.last_event_id === 'string' ? req.query.last_event_id : undefined;
      const resumeAfter = fromQuery !== undefined ? parsePosition(fromQuery, 'last_event_id') : parsePosition(req.header('last-event-id'), 'Last-Event-ID');
      const pending = await prepareStreamConnection(deps, customerId, req.params.id, resumeAfter);
      if (req.destroyed || res.destroyed) {
        pending.cancel();
        return;
      }
      pending.attach(openSse(req, res, sse));
    }),
  );
}
