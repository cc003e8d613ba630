/**
 * `wellstream listen <stream> --forward-to`: 1,000 records from five users reach a local receiver
 * through two 30-second outages of the receiver and a restart of the CLI, none lost and each user's
 * in order, every request exactly what production push posts to the organization's target (same
 * headers, body shape, signature, and the same record as item). `replay --until-caught-up
 * --forward-to` hands over the history and exits 0; `push test` and `notifications redeliver`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { verifyPushSignature } from '@wellstream/sdk';
import { runCli } from '../src';
import { postMeasurements, sdkTenant } from '../../sdk/test/sdk-fixtures';

jest.setTimeout(240_000);
const SECRET = 'forward-secret-0123456789';
let platform: TestPlatform;
beforeAll(async () => (platform = await startTestPlatform({ env: { WELLSTREAM_POKE_INTERVAL_MS: '1000' } })));
afterAll(() => platform?.stop());

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: { id: string; items: { log_id: string; user: { uid: string } }[] };
}

/** A push receiver that checks every signature and can be stopped and started on its port. */
async function receiver() {
  const r = { deliveries: [] as Delivery[], refused: 0, url: '' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      try {
        await verifyPushSignature(raw, req.headers, SECRET);
      } catch {
        r.refused++;
        return res.writeHead(401).end();
      }
      r.deliveries.push({ headers: req.headers, body: JSON.parse(raw.toString('utf8')) });
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${port}/hook`;
  return Object.assign(r, {
    logIds: () => r.deliveries.flatMap((d) => d.body.items.map((i) => i.log_id)),
    down: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
    up: () => new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok)),
  });
}

function startCli(argv: string[], env: NodeJS.ProcessEnv) {
  const stop = new AbortController();
  let stdout = '';
  let stderr = '';
  const done = runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, signal: stop.signal });
  return { stop: () => stop.abort(), done, out: () => stdout, err: () => stderr };
}

async function waitUntil(cond: () => boolean, ms = 90_000, state: () => string = () => ''): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out ${state()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('delivers 1,000 records through two 30 s receiver outages and a CLI restart, none lost, in order per user, as production push posts them', async () => {
  const t = await sdkTenant(platform.baseUrl);
  const env = { WELLSTREAM_CONFIG_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-listen-')), WELLSTREAM_API_URL: platform.baseUrl, WELLSTREAM_API_TOKEN: t.token, WELLSTREAM_ORG: t.orgId };
  const hook = await receiver();
  const production = await receiver();
  await t.client.notifications.setTarget(t.orgId, { url: production.url, secret: SECRET });
  const users = await Promise.all(
    ['a', 'b', 'c', 'd', 'e'].map(async (u) => {
      await t.client.users.create(t.orgId, { uid: `listen-${u}` });
      return { uid: `listen-${u}`, mobile: (await t.client.users.get(t.orgId, `listen-${u}`)).mobile.token, sent: [] as string[] };
    }),
  );
  // 250 records a round, 10 per request, the users taking turns; each user's order is its posting
  // order. Every record has its own time and value (equal ones would be dropped as duplicates).
  const start = Date.now() - 3_600_000;
  const post = async () => {
    for (let i = 0; i < 5; i++) {
      for (const u of users) {
        const records = Array.from({ length: 10 }, () => {
          const n = u.sent.push(`${u.uid}-${u.sent.length}`) - 1;
          const at = new Date(start + n * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
          return { type: 'measurement', source: { type: 'withings' }, log_id: u.sent[n], start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 50 + n / 100, origin: 'device' }] };
        });
        await t.client.mobile.ingest(u.mobile, { records } as never);
      }
    }
  };
  const stream = await t.client.streams.create({ name: 'listen', event_type_filter: ['data'] });
  const argv = ['listen', stream.id, '--forward-to', hook.url, '--secret', SECRET, '--timeout', '2'];
  const first = startCli(argv, env);
  let second: ReturnType<typeof startCli> | undefined;
  const state = () => `received ${new Set(hook.logIds()).size}; first: ${first.err().slice(-1500)}\nsecond: ${second?.err().slice(-1500)}`;
  try {
    await post();
    await waitUntil(() => new Set(hook.logIds()).size >= 250, 60_000, state);

    await hook.down(); // outage 1, and the CLI is restarted during it
    await post();
    await sleep(15_000);
    first.stop();
    expect(await first.done).toBe(0);
    expect(first.err()).toMatch(/ECONNREFUSED on try \d+; trying again in/);
    expect(first.err()).toMatch(/stopped before event \d+-\d+ was delivered; it is sent again on the next run/);
    second = startCli(argv, env);
    try {
      await sleep(15_000);
      await hook.up();
      await post();
      await waitUntil(() => new Set(hook.logIds()).size >= 750, 60_000, state);

      await hook.down(); // outage 2
      await post();
      await sleep(30_000);
      await hook.up();
      await waitUntil(() => new Set(hook.logIds()).size >= 1000, 60_000, state);
      expect(second.err()).toMatch(/Resuming after the last events delivered \(\d+-\d+(,\d+-\d+)*;/);
      expect(second.err()).toMatch(/connected to stream /);
    } finally {
      second.stop();
      expect(await second.done).toBe(0);
    }

    const received = hook.logIds();
    const firsts = [...new Set(received)];
    expect(firsts.sort()).toEqual(users.flatMap((u) => u.sent).sort());
    expect(received.length - firsts.length).toBeLessThanOrEqual(2); // a try cut by the outage may have reached it
    for (const u of users) expect([...new Set(received.filter((id) => id.startsWith(`${u.uid}-`)))]).toEqual(u.sent);
    expect(hook.refused).toBe(0);

    // What production posted to the organization's target, request for request the same form.
    await waitUntil(() => new Set(production.logIds()).size >= 1000);
    const headerNames = (d: Delivery) => Object.keys(d.headers).sort();
    const prod = production.deliveries[0];
    for (const d of hook.deliveries) {
      expect(headerNames(d)).toEqual(headerNames(prod));
      expect(d.headers['user-agent']).toBe(prod.headers['user-agent']);
      expect(d.headers['content-type']).toBe(prod.headers['content-type']);
      expect(d.headers['x-wellstream-batch-id']).toBe(d.body.id);
      expect(d.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(Object.keys(d.body)).toEqual(Object.keys(prod.body));
      expect(d.body.items).toHaveLength(1);
    }
    const prodItems = new Map(production.deliveries.flatMap((d) => d.body.items.map((i) => [i.log_id, i])));
    for (const d of hook.deliveries.slice(0, 50)) expect(d.body.items[0]).toEqual(prodItems.get(d.body.items[0].log_id));
  } finally {
    first.stop();
    await hook.down();
    await production.down();
  }
});

it('replay --until-caught-up --forward-to delivers the history as push batches and exits 0', async () => {
  const t = await sdkTenant(platform.baseUrl);
  const env = { WELLSTREAM_CONFIG_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-replay-')), WELLSTREAM_API_URL: platform.baseUrl, WELLSTREAM_API_TOKEN: t.token };
  const hook = await receiver();
  try {
    await t.client.users.create(t.orgId, { uid: 'replay-1' });
    const sent = await postMeasurements(t.client, (await t.client.users.get(t.orgId, 'replay-1')).mobile.token, 20, 'rp');
    await sleep(500);
    const run = startCli(['replay', '--since', new Date().toISOString().slice(0, 10), '--event-types', 'data', '--forward-to', hook.url, '--secret', SECRET, '--until-caught-up'], env);
    expect(await run.done).toBe(0);
    expect([...hook.logIds()].sort()).toEqual([...sent].sort());
    expect(run.err()).toMatch(/20 events, 20 records delivered/);
  } finally {
    await hook.down();
  }
});

it('push test posts a signed sample batch once; notifications redeliver queues a batch again', async () => {
  const t = await sdkTenant(platform.baseUrl);
  const env = { WELLSTREAM_CONFIG_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-push-')), WELLSTREAM_API_URL: platform.baseUrl, WELLSTREAM_API_TOKEN: t.token, WELLSTREAM_ORG: t.orgId };
  const hook = await receiver();
  try {
    const ok = startCli(['push', 'test', hook.url, '--secret', SECRET], env);
    expect(await ok.done).toBe(0);
    expect(ok.out()).toMatch(/^POST .*\/hook batch [0-9a-f-]{36} -> 200 ok\n$/);
    expect(hook.deliveries).toHaveLength(1);
    expect(hook.deliveries[0].body.items[0]).toMatchObject({ type: 'measurement', user: { uid: 'sample-user' } });
    const wrong = startCli(['push', 'test', hook.url, '--secret', 'another-secret-0123456789'], env);
    expect(await wrong.done).toBe(1);
    expect(wrong.err()).toMatch(/did not accept the sample batch \(status 401\)/);

    await t.client.notifications.setTarget(t.orgId, { url: hook.url, secret: SECRET });
    await t.client.users.create(t.orgId, { uid: 'push-1' });
    await postMeasurements(t.client, (await t.client.users.get(t.orgId, 'push-1')).mobile.token, 1, 'push');
    await waitUntil(() => hook.deliveries.length >= 2);
    await waitUntil(() => false, 300).catch(() => undefined);
    const batchId = hook.deliveries[1].body.id;
    const again = startCli(['notifications', 'redeliver', batchId], env);
    expect(await again.done).toBe(0);
    expect(again.out()).toContain(`batch ${batchId} queued for delivery again`);
    await waitUntil(() => hook.deliveries.filter((d) => d.body.id === batchId).length >= 2);
    const list = startCli(['notifications', 'list', '--json'], env);
    expect(await list.done).toBe(0);
    expect(JSON.parse(list.out()).data.map((b: { id: string }) => b.id)).toContain(batchId);
  } finally {
    await hook.down();
  }
});
