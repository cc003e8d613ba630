/**
 * `wellstream listen <stream> --forward-to`: 1,000 events forwarded to a local server, each signed
 * like push (the receiver checks every one with the SDK's verifyPushSignature), none lost or
 * duplicated; a restarted CLI resumes after the last event it handled (its saved Last-Event-ID).
 * `replay --until-caught-up --forward-to` hands over the history and exits 0.
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

jest.setTimeout(120_000);
const SECRET = 'forward-secret-0123456789';
let platform: TestPlatform;
beforeAll(async () => (platform = await startTestPlatform({ env: { WELLSTREAM_POKE_INTERVAL_MS: '1000' } })));
afterAll(() => platform?.stop());

interface Receiver {
  url: string;
  logIds: string[];
  eventIds: string[];
  refused: number;
  close(): void;
}

async function receiver(): Promise<Receiver> {
  const r = { logIds: [] as string[], eventIds: [] as string[], refused: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      try {
        await verifyPushSignature(body, req.headers, SECRET);
      } catch {
        r.refused++;
        res.statusCode = 401;
        return res.end();
      }
      const event = JSON.parse(body.toString('utf8'));
      if (event.type === 'data') r.logIds.push(event.data.log_id);
      r.eventIds.push(req.headers['x-wellstream-event-id'] as string);
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return Object.assign(r, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => server.close() });
}

function startCli(argv: string[], env: NodeJS.ProcessEnv) {
  const stop = new AbortController();
  let stdout = '';
  let stderr = '';
  const done = runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, signal: stop.signal });
  return { stop: () => stop.abort(), done, out: () => stdout, err: () => stderr };
}

async function waitUntil(cond: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('forwards 1,000 events, signed, none lost or duplicated, and resumes after a restart', async () => {
  const t = await sdkTenant(platform.baseUrl);
  const env = { WELLSTREAM_CONFIG_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-listen-')), WELLSTREAM_API_URL: platform.baseUrl, WELLSTREAM_API_TOKEN: t.token, WELLSTREAM_ORG: t.orgId };
  const hook = await receiver();
  try {
    const user = await t.client.users.create(t.orgId, { uid: 'listen-1' });
    const mobile = (await t.client.users.get(t.orgId, user.uid)).mobile.token;
    const stream = await t.client.streams.create({ name: 'listen', event_type_filter: ['data'] });
    const first = startCli(['listen', stream.id, '--forward-to', hook.url, '--secret', SECRET], env);
    const sent = await postMeasurements(t.client, mobile, 1000, 'fwd');
    await waitUntil(() => hook.logIds.length >= 1000);
    first.stop();
    expect(await first.done).toBe(0);
    expect(first.out().trim().split('\n')).toHaveLength(1000);
    expect(first.out()).toMatch(/data\s+\d+-\d+\s+-> 200/);
    expect(hook.refused).toBe(0);
    expect(new Set(hook.logIds).size).toBe(hook.logIds.length);
    expect([...hook.logIds].sort()).toEqual([...sent].sort());

    // A new run of the CLI starts after the saved Last-Event-ID: only events posted since arrive.
    const second = startCli(['listen', stream.id, '--forward-to', hook.url, '--secret', SECRET], env);
    const more = await postMeasurements(t.client, mobile, 5, 'again');
    await waitUntil(() => hook.logIds.length >= 1005);
    second.stop();
    expect(await second.done).toBe(0);
    expect(second.err()).toMatch(/Resuming after event \d+-\d+/);
    expect(hook.logIds.slice(1000).sort()).toEqual([...more].sort());
  } finally {
    hook.close();
  }
});

it('replay --until-caught-up --forward-to delivers the history and exits 0', async () => {
  const t = await sdkTenant(platform.baseUrl);
  const env = { WELLSTREAM_CONFIG_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-replay-')), WELLSTREAM_API_URL: platform.baseUrl, WELLSTREAM_API_TOKEN: t.token };
  const hook = await receiver();
  try {
    await t.client.users.create(t.orgId, { uid: 'replay-1' });
    const sent = await postMeasurements(t.client, (await t.client.users.get(t.orgId, 'replay-1')).mobile.token, 20, 'rp');
    await new Promise((r) => setTimeout(r, 500));
    const run = startCli(['replay', '--since', new Date().toISOString().slice(0, 10), '--event-types', 'data', '--forward-to', hook.url, '--secret', SECRET, '--until-caught-up'], env);
    expect(await run.done).toBe(0);
    expect([...hook.logIds].sort()).toEqual([...sent].sort());
    expect(run.err()).toMatch(/20 events, 20 delivered, 0 not delivered/);
  } finally {
    hook.close();
  }
});
