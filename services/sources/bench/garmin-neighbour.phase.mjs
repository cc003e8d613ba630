/**
 * Garmin's noisy neighbour (neighbour.phase.mjs): 1,000 (`users`) Garmin users of customer A, each
 * pinged once a minute for a new activity (the ping names a pull of Garmin's; the platform pulls it
 * with the user's token and ingests it), against customer B's ingestion p99 idle and busy.
 * The platform's cost is measured, not Garmin's quota: the application's budget is raised, as a
 * production key's would be for 1,000 users (the evaluation key's 100 a minute would leave the
 * users' one-day backfill requests queued for an hour).
 *   node services/sources/bench/sources.mjs --only garmin-neighbour [--users 1000] [--seconds 60]
 */
import path from 'node:path';
import { startEmbedded } from '../../../bench/harness.mjs';
import { requireTs } from '../../../scripts/ts-require.mjs';
import { noisyNeighbourPhase } from './neighbour.phase.mjs';

export async function garminNeighbourPhase(root, { users, seconds }) {
  const { GarminSimulator } = requireTs(path.join(root, 'services/sources/src/providers/garmin/simulator/garmin-simulator.ts'));
  const sim = new GarminSimulator();
  await sim.start();
  const platform = await startEmbedded({
    ...sim.env(),
    WELLSTREAM_SOURCE_BACKFILL_DAYS: '1',
    WELLSTREAM_SOURCE_POLL_INTERVAL_S: '86400',
    WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100',
    WELLSTREAM_SOURCE_GARMIN_RATE_LIMITS: '1000000/1m',
    ...(process.env.BENCH_LOG_LEVEL ? { WELLSTREAM_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
  });
  try {
    return await noisyNeighbourPhase({
      name: 'Garmin',
      platform,
      users,
      seconds,
      connectUser: async (_base, marketplaceUrl) => {
        const who = sim.createUser({ days: 1, now: new Date() });
        const start = await fetch(`${marketplaceUrl}/sources/garmin/connect`, { method: 'POST', redirect: 'manual' });
        const back = await fetch(sim.authorize(start.headers.get('location'), who, 'allow'), { redirect: 'manual' });
        if (!back.headers.get('location')?.includes('notice=connected')) throw new Error(`callback answered ${back.status} ${back.headers.get('location')}`);
        return who;
      },
      // Each ping carries an activity uploaded just now: one pull and one ingestion per ping.
      notify: (base, who) => {
        sim.addData(who, 'activities', new Date());
        return sim.notify(`${base}/sources/garmin/webhook`, who, 'activities');
      },
    });
  } finally {
    await platform.stop();
    await sim.stop();
  }
}
