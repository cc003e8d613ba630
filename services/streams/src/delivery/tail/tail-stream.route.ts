/**
 * GET /v2/streams/:id/tail — HTTP in/out of a read-only tail; a bad Last-Event-ID (400), an unknown
 * stream (404) or a customer at its tail quota (429) is a JSON answer before the event stream opens.
 */
import type { IRouter } from 'express';
import { callerOf, endpointRoute } from '@wellstream/http';
import { streamEndpoint } from '../../streams/stream-endpoints';
import { parsePositions } from '../event-position';
import { openSse, SseSettings } from '../sse-response';
import { prepareTail, startTail, TailDeps } from './tail-stream.usecase';

export function tailRoute(router: IRouter, deps: TailDeps, sse: SseSettings): void {
  endpointRoute(router, streamEndpoint('tailStream'), [], async (req, res) => {
    const { customerId } = callerOf(req);
    const fromQuery = typeof req.query.last_event_id === 'string' ? req.query.last_event_id : undefined;
    const resumeAfter = fromQuery !== undefined ? parsePositions(fromQuery, 'last_event_id') : parsePositions(req.header('last-event-id'), 'Last-Event-ID');
    const tail = await prepareTail(deps, customerId, req.params.id);
    if (req.destroyed || res.destroyed) return tail.release();
    startTail(deps, tail, resumeAfter, openSse(req, res, sse));
  });
}
