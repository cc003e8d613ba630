#!/usr/bin/env node
/**
 * `npm run demo:sources`: one command that shows a provider source working end to end, offline.
 * It starts the Oura simulator (services/sources/src/providers/oura/simulator, written from Oura's API
 * documents) and the embedded platform configured for it, creates a customer and a user, connects
 * the user's "Oura account" through the marketplace (303 to the authorize URL, consent, callback),
 * waits for the 30-day backfill and prints what arrived. It then keeps running: open the printed
 * marketplace URL to see the connection, or press Ctrl-C to stop. Data goes to a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { requireTs } from './ts-require.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// The simulator is TypeScript, beside its adapter (compiled on load).
const { OuraSimulator } = requireTs(path.join(root, 'services/sources/src/providers/oura/simulator/oura-simulator.ts'));
const { startPlatform } = require(path.join(root, 'platform/dist/index.js'));

const say = (line) => console.log(`[demo] ${line}`);
const json = async (res) => {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
};

const sim = new OuraSimulator();
await sim.start();
const who = sim.createUser({ days: 30, now: new Date() });
sim.setBrowserUser(who);
say(`Oura simulator on ${sim.url} (account ${who.providerUserId}, 30 days of data)`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-sources-demo-'));
const admin = 'demo-admin-token-0123456789abcdef';
const platform = await startPlatform({ ...process.env, ...sim.env(), WELLSTREAM_PORT: process.env.WELLSTREAM_PORT ?? '0', WELLSTREAM_DATA_DIR: dataDir, WELLSTREAM_ADMIN_TOKEN: admin, WELLSTREAM_LOG_LEVEL: 'warn' });
const B = platform.baseUrl;
const post = (url, body, token) => fetch(`${url}${token ? `?token=${token}` : ''}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const customer = await json(await post(`${B}/admin/customers`, { name: 'Demo' }, admin));
const org = await json(await post(`${B}/admin/customers/${customer.id}/organizations`, { name: 'Demo org' }, admin));
const { token } = await json(await post(`${B}/admin/customers/${customer.id}/tokens`, {}, admin));
const user = await json(await post(`${B}/organizations/${org.id}/users`, { uid: 'oura-demo', location: { timezone: 'Europe/Berlin' } }, token));
say(`platform on ${B}; user oura-demo created`);

const start = await fetch(`${user.marketplace.url}/sources/oura/connect`, { method: 'POST', redirect: 'manual' });
say(`Connect → ${start.status} to ${new URL(start.headers.get('location')).origin}/… (Oura's authorize page)`);
const callback = sim.authorize(start.headers.get('location'), who, 'allow');
const back = await fetch(callback, { redirect: 'manual' });
say(`consent given → callback → ${back.status} back to the marketplace (${new URL(back.headers.get('location')).search})`);

const t0 = Date.now();
for (;;) {
  const u = await json(await fetch(`${B}/organizations/${org.id}/users/oura-demo?token=${token}`));
  const s = u.sources.find((x) => x.type === 'oura');
  if (s?.backfill?.state === 'done') break;
  if (Date.now() - t0 > 120_000) throw new Error('the backfill did not finish within 2 minutes');
  await new Promise((r) => setTimeout(r, 500));
}
say(`30-day backfill done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const today = new Date();
const from = new Date(today.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
for (const p of ['summaries', 'sleep', 'workouts', 'intraday']) {
  const { data } = await json(await fetch(`${B}/organizations/${org.id}/users/oura-demo/${p}?start_date=${from}&end_date=${today.toISOString().slice(0, 10)}&token=${token}`));
  say(`  ${p.padEnd(9)} ${String(data.length).padStart(4)} records`);
}
say(`marketplace: ${user.marketplace.url}`);
say(`developer token: ${token}   organization: ${org.id}`);
if (process.argv.includes('--exit')) {
  await platform.stop();
  await sim.stop();
  process.exit(0);
}
say('running; Ctrl-C to stop');
process.on('SIGINT', async () => {
  await platform.stop();
  await sim.stop();
  process.exit(0);
});
