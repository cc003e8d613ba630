/**
 * GET /v2/replay — HTTP in/out of a replay connection; a bad query (400) or a customer at its replay
 * quota (429) is a JSON answer before the event stream opens.
 */
import type { IRouter } from 'express';
import { callerOf, endpointRoute } from '@wellstream/http';
import { streamEndpoint } from '../../streams/stream-endpoints';
import { openSse, SseSettings } from '../sse-response';
import { parseReplayQuery } from './replay.schema';
import { ReplayDeps, reserveReplay, startReplay } from './replay.usecase';

export function replayRoute(router: IRouter, deps: ReplayDeps, sse: SseSettings): void {
  endpointRoute(router, streamEndpoint('replay'), [], async (req, res) => {
    const { customerId } = callerOf(req);
    const query = parseReplayQuery(req.query as Record<string, unknown>, req.header('last-event-id'));
    const release = reserveReplay(deps, customerId);
    if (req.destroyed || res.destroyed) return release();
    startReplay(deps, customerId, query, openSse(req, res, sse), release);
  });
}
