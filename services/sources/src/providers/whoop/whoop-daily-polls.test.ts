/**
 * A day of the service's polling for one WHOOP user, against the WHOOP simulator: what it spends of
 * WHOOP's 10,000 requests a day per application. The poll rounds follow the service's rule (an
 * hourly round, as the defaults poll providers with notifications; each resource read from a day
 * before its last poll up to now, when `pollDue` says it is due), with the clock moved an hour
 * a round so the adapter and the simulator see the time they would.
 */
import { settingsFrom, syncAll } from '../../../test/simulators/kit/adapter-test-setup';
import { fetchProviderHttp } from '../../http/fetch-provider-http';
import { whoopAdapter } from './whoop.adapter';
import { WHOOP_RATE_LIMITS } from './whoop-limits';
import { pollDue } from '../../sync/poll-due';
import { WhoopSimulator } from './simulator/whoop-simulator';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const http = fetchProviderHttp({ timeoutMs: 10_000 });
const sim = new WhoopSimulator();

beforeAll(() => sim.start());
afterAll(async () => {
  jest.useRealTimers();
  await sim.stop();
});

it('polls a WHOOP user for a day in under 30 requests: what WHOOP notifies, and body measurements, once a day', async () => {
  const settings = settingsFrom(sim.env(), 'whoop', 'https://wellstream.example/v2/sources/whoop/webhook');
  const connectedAt = Date.now() - DAY;
  const user = sim.createUser({ days: 30, now: new Date(connectedAt) });
  // Only Date moves: timers, sockets and the simulator's server keep real time.
  jest.useFakeTimers({ now: connectedAt, doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  const code = new URL(sim.authorize(whoopAdapter.authorizeUrl(settings, { state: 'state-0001' }), user, 'allow')).searchParams.get('code')!;
  let tokens = await whoopAdapter.exchangeCode(http, settings, { code }, new Date());
  // The backfill ended at the connect: every resource is synced up to then.
  const syncedUntil = new Map(whoopAdapter.resources.map((r) => [r.name, new Date(connectedAt).toISOString()]));
  const before = sim.stats(user).dataRequests;
  const reads = new Map<string, number>();
  for (let round = 1; round <= 24; round++) {
    jest.setSystemTime(connectedAt + round * HOUR);
    const now = new Date();
    // WHOOP's access tokens last an hour ("refresh tokens every hour"): the token URL, not a data call.
    tokens = await whoopAdapter.refresh(http, settings, tokens, now);
    for (const spec of whoopAdapter.resources) {
      if (!pollDue(spec, syncedUntil.get(spec.name), now)) continue;
      await syncAll({ adapter: whoopAdapter, http, settings }, tokens.accessToken, spec.name, new Date(Date.parse(syncedUntil.get(spec.name)!) - DAY), now);
      syncedUntil.set(spec.name, now.toISOString());
      reads.set(spec.name, (reads.get(spec.name) ?? 0) + 1);
    }
  }
  const spent = sim.stats(user).dataRequests - before;
  console.log(`[whoop] a day of polls: ${spent} requests a user (${JSON.stringify(Object.fromEntries(reads))}); ${Math.floor(WHOOP_RATE_LIMITS.perDay / spent)} users before notifications fill WHOOP's daily ${WHOOP_RATE_LIMITS.perDay}`);
  // Cycles every round (no webhooks, today's grows); the rest once, at the round a day after the last.
  expect(Object.fromEntries(reads)).toEqual({ cycle: 24, recovery: 1, sleep: 1, workout: 1, body_measurement: 1 });
  expect(spent).toBeLessThan(30);
});
