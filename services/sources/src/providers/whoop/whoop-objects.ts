/**
 * One object a WHOOP webhook names, read by its id whatever its age. WHOOP's webhook page: on
 * `sleep.updated` read the sleep by its id, and it tests webhooks by logging an activity in the past
 * or editing a previous sleep, so the object may be weeks old. Routes, from WHOOP's OpenAPI document:
 *
 * - sleep: `GET /v2/activity/sleep/{sleepId}` (UUID) → Sleep
 * - workout: `GET /v2/activity/workout/{workoutId}` (UUID) → WorkoutV2
 * - recovery: a v2 `recovery.*` event carries its sleep's UUID (changelog 2025-08-01), and a
 *   recovery is found by its cycle only (`GET /v2/cycle/{cycleId}/recovery`). So: the sleep, whose
 *   `cycle_id` names the cycle, then the cycle's recovery, then the cycle (`GET /v2/cycle/{cycleId}`)
 *   for the span the recovery's summary covers. The sleep and the cycle read on the way become their
 *   records too: a cycle's strain changes with its sleep and WHOOP sends no cycle webhooks.
 *
 * Each answers 404 ("No resource found") once the object is gone: no records (a deletion comes as
 * its own `*.deleted` event).
 */
import { unknownResource } from '../kit/adapter-wiring';
import type { IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, check } from './whoop-http';
import { Json, parseJson, requireId, requireObject } from './whoop-json';
import { cycleSpan, mapCycle, mapRecovery, mapSleep, mapWorkout } from './whoop-mapping';

type Ctx = { http: ProviderHttp; settings: ProviderSettings; accessToken: string };

/** The object at `path`, or undefined on 404. */
async function one(ctx: Ctx, path: string, what: string): Promise<Json | undefined> {
  const res = await ctx.http.send({ method: 'GET', url: apiUrl(ctx.settings, path), headers: bearer(ctx.accessToken) });
  if (res.status === 404) return undefined;
  const ok = check(res, what);
  return requireObject(parseJson(ok.body, what, ok.status), what);
}

const segment = (id: string) => encodeURIComponent(id);

export async function fetchObject(ctx: Ctx, resource: string, id: string): Promise<IngestRecord[]> {
  if (resource === 'workout') {
    const workout = await one(ctx, `/v2/activity/workout/${segment(id)}`, 'workout');
    return workout ? [mapWorkout(workout)] : [];
  }
  if (resource !== 'sleep' && resource !== 'recovery') throw unknownResource('WHOOP', resource);
  const sleep = await one(ctx, `/v2/activity/sleep/${segment(id)}`, 'sleep');
  if (!sleep) return [];
  if (resource === 'sleep') return [mapSleep(sleep)];
  const cycleId = requireId(sleep, 'cycle_id', 'sleep');
  const recovery = await one(ctx, `/v2/cycle/${segment(cycleId)}/recovery`, 'recovery');
  const cycle = recovery && (await one(ctx, `/v2/cycle/${segment(cycleId)}`, 'cycle'));
  if (!recovery || !cycle) return [mapSleep(sleep)];
  // The cycle the member is in has no end yet: its records run to now, and the next read extends them.
  const now = Date.now();
  return [mapRecovery(recovery, cycleSpan(cycle, now)), mapSleep(sleep), mapCycle(cycle, now)];
}
