/**
 * The simulator's v3 data endpoints (developer.dexcom.com/docs/dexcomv3/endpoint-overview):
 * /v3/users/self/egvs, /calibrations, /events (startDate/endDate, `YYYY-MM-DDThh:mm:ss`, no zone,
 * read against systemTime, at most 30 days apart), /dataRange and /devices. Answers are the
 * documented envelope `{recordType, recordVersion: "3.0", userId, records}`.
 *
 * Window edges are not documented as inclusive or exclusive: the simulator returns records with
 * startDate ≤ systemTime ≤ endDate (both ends), the reading least kind to a client, so an adapter
 * that stitches windows must drop what it did not ask for.
 */
import { calibrationJson, DAY, egvJson, moment, SimUser } from './dexcom-sim-data';

export interface ApiAnswer {
  status: number;
  body: unknown;
}

const MAX_WINDOW_MS = 30 * DAY;
const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** A 400 for the request's parameters; Dexcom's body for it is not on the pages read, this one is ours. */
const badRequest = (message: string): ApiAnswer => ({ status: 400, body: { error: 'invalid_request', error_description: message } });

function window(query: URLSearchParams): { from: number; to: number } | ApiAnswer {
  const start = query.get('startDate');
  const end = query.get('endDate');
  if (!start || !end) return badRequest('startDate and endDate are required');
  if (!DATE.test(start) || !DATE.test(end)) return badRequest('dates must be formatted YYYY-MM-DDThh:mm:ss');
  const from = Date.parse(`${start}Z`);
  const to = Date.parse(`${end}Z`);
  if (Number.isNaN(from) || Number.isNaN(to)) return badRequest('dates must be real times');
  if (to < from) return badRequest('endDate must not be before startDate');
  if (to - from > MAX_WINDOW_MS) return badRequest('the time window may be at most 30 days');
  return { from, to };
}

const envelope = (recordType: string, user: SimUser, records: unknown[]) => ({ recordType, recordVersion: '3.0', userId: user.providerUserId, records });

export function dataAnswer(path: string, query: URLSearchParams, user: SimUser): ApiAnswer {
  if (path === '/v3/users/self/dataRange') return { status: 200, body: dataRange(user) };
  if (path === '/v3/users/self/devices') {
    const last = user.egvs[user.egvs.length - 1]?.ms;
    const record = { lastUploadDate: moment(user, last)?.systemTime, transmitterId: user.transmitterId, transmitterGeneration: user.generation, displayDevice: user.displayDevice, displayApp: user.displayDevice === 'iOS' ? `Dexcom ${user.generation.toUpperCase()}` : 'receiver' };
    return { status: 200, body: envelope('device', user, [record]) };
  }
  const resource = { '/v3/users/self/egvs': 'egv', '/v3/users/self/calibrations': 'calibration', '/v3/users/self/events': 'event' }[path];
  if (!resource) return { status: 404, body: { error: 'not_found' } };
  const w = window(query);
  if ('status' in w) return w;
  const inWindow = (ms: number) => ms >= w.from && ms <= w.to;
  if (resource === 'egv') return { status: 200, body: envelope('egv', user, user.egvs.filter((r) => inWindow(r.ms)).map((r) => egvJson(user, r))) };
  if (resource === 'calibration') return { status: 200, body: envelope('calibration', user, user.calibrations.filter((c) => inWindow(c.ms)).map((c) => calibrationJson(user, c))) };
  return { status: 200, body: envelope('event', user, []) }; // the simulated users log no events
}

function dataRange(user: SimUser): Record<string, unknown> {
  const span = (times: number[]) => (times.length ? { start: moment(user, Math.min(...times)), end: moment(user, Math.max(...times)) } : undefined);
  return {
    recordType: 'dataRange',
    recordVersion: '3.0',
    userId: user.providerUserId,
    calibrations: span(user.calibrations.map((c) => c.ms)),
    egvs: span(user.egvs.map((r) => r.ms)),
    events: undefined,
  };
}
