/**
 * The noisy-neighbour phase every provider's benchmark runs: on a platform whose backfill is one
 * day (the phase measures notifications, not history), `users` users of customer A are connected to
 * one provider's simulator; once their histories settle, customer B posts one record every 20 ms
 * for `seconds` while nothing else happens (idle), then again while each of A's users is notified
 * once a minute (busy: a live fetch and ingestion each). Target: B's busy p99 within 2× of idle.
 *
 * The provider's part is two calls: `connectUser(base, marketplaceUrl, i)` connects A's i-th user
 * through the marketplace and the simulator's consent (and gives it something to be notified of),
 * returning the simulated user; `notify(base, who)` sends that user's notification, resolving to our
 * webhook's status.
 */
import { api, createTenant, createUser, measurement, pct, settle, sleep } from '../../../bench/harness.mjs';

const f1 = (x) => x.toFixed(1);

export async function noisyNeighbourPhase({ name, platform, users, seconds, connectUser, notify, settleMs = 600_000 }) {
  console.log(`\n== ${name} noisy neighbour: ${users} connected ${name} users of customer A (1 day of history each), each notified once a minute`);
  const base = platform.base;
  const ta = await createTenant(base, 'A');
  const tb = await createTenant(base, 'B');
  const connected = [];
  const setupStart = performance.now();
  for (let i = 0; i < users; i++) {
    const u = await api(base, 'POST', `/organizations/${ta.organizationId}/users`, ta.token, { uid: `nn-${i}`, location: { timezone: 'Europe/Berlin' } });
    connected.push(await connectUser(base, u.marketplace.url, i));
  }
  console.log(`connected ${users} users in ${f1((performance.now() - setupStart) / 1000)} s; waiting for their backfills to settle`);
  await settle(platform.pid, 15, settleMs);
  const bUser = await createUser(base, tb, 'b-user');
  const probe = async (during) => {
    const lat = [];
    const end = performance.now() + seconds * 1000;
    let notified = 0;
    const notifier = during
      ? (async () => {
          const n0 = performance.now();
          while (performance.now() < end) {
            const due = Math.min(users * Math.ceil(seconds / 60), Math.floor(((performance.now() - n0) / 1000) * (users / 60)));
            const batch = [];
            while (notified < due) batch.push(notify(base, connected[notified++ % users]));
            for (const status of await Promise.all(batch)) if (status >= 300) throw new Error(`${name} webhook answered ${status}`);
            await sleep(50);
          }
        })()
      : Promise.resolve();
    while (performance.now() < end) {
      const p0 = performance.now();
      const res = await fetch(`${base}/mobile/records?token=${bUser.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [measurement('b')] }) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`B's ingestion answered ${res.status}`);
      lat.push(performance.now() - p0);
      await sleep(20);
    }
    await notifier;
    return { lat, notified };
  };
  const idle = await probe(false);
  const busy = await probe(true);
  const ratio = pct(busy.lat, 99) / pct(idle.lat, 99);
  console.log(`B idle   p50 ${f1(pct(idle.lat, 50))} ms  p99 ${f1(pct(idle.lat, 99))} ms  (${idle.lat.length} posts)`);
  console.log(`B busy   p50 ${f1(pct(busy.lat, 50))} ms  p99 ${f1(pct(busy.lat, 99))} ms  (${busy.lat.length} posts, ${busy.notified} notifications to A's users)`);
  console.log(`busy p99 / idle p99 ${f1(ratio)}× · target ≤ 2×: ${ratio <= 2 ? 'met' : 'MISSED'}`);
  return { idle, busy, ratio };
}
