/**
 * The CLI in-process (runCli, as the executable runs it) against a running platform: login saves an
 * owner-only config, the REST commands print tables or JSON, and bad input gets usage and exit 2,
 * an unreachable server one line and exit 1. The built executable is run once for the same promises.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { runCli } from '../src';
import { postMeasurements, sdkTenant, SdkTenant } from '../../sdk/test/sdk-fixtures';

jest.setTimeout(60_000);
let platform: TestPlatform;
let t: SdkTenant;
let configDir: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  t = await sdkTenant(platform.baseUrl);
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-cli-'));
});
afterAll(() => platform?.stop());

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { WELLSTREAM_CONFIG_DIR: configDir } });
  return { code, stdout, stderr };
}

it('logs in, keeping the token in an owner-only file', async () => {
  const r = await cli('login', '--base-url', platform.baseUrl, '--token', t.token, '--org', t.orgId);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toMatch(/Logged in to .*Rate limit: \d+ of \d+/s);
  const file = path.join(configDir, 'config.json');
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.statSync(configDir).mode & 0o077).toBe(0);
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ current_profile: 'default', profiles: { default: { base_url: platform.baseUrl, token: t.token, organization_id: t.orgId } } });
  const bad = await cli('login', '--base-url', platform.baseUrl, '--token', 'wrong-token');
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/^wellstream: 401 /);
});

it('refuses a base URL that is not the API, saving nothing: no scheme (exit 2), an HTML page (exit 1, with the /v2 hint)', async () => {
  const before = fs.readFileSync(path.join(configDir, 'config.json'), 'utf8');
  const noScheme = await cli('login', '--base-url', '127.0.0.1:8080/v2', '--token', t.token);
  expect(noScheme.code).toBe(2);
  expect(noScheme.stderr).toMatch(/^wellstream: baseUrl "127\.0\.0\.1:8080\/v2" is not a URL: write it with its scheme, e\.g\. http:\/\/127\.0\.0\.1:8080\/v2\n$/);
  const page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>It works</h1>'));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  try {
    const html = await cli('login', '--base-url', `http://127.0.0.1:${(page.address() as AddressInfo).port}/app`, '--token', t.token);
    expect(html.code).toBe(1);
    expect(html.stderr).toMatch(/^wellstream: 200 .*text\/html, not the API's JSON: <!doctype html><h1>It works<\/h1> \(is \/v2 missing from the base URL .*\/app\?\)\n$/);
  } finally {
    page.close();
  }
  expect(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).toBe(before);
});

it('users create, list and get; records as a table and as JSON', async () => {
  expect((await cli('users', 'create', 'cli-user-1', '--timezone', 'Europe/Berlin')).code).toBe(0);
  const list = await cli('users', 'list');
  expect(list.stdout).toMatch(/^UID\s+ID\s+STATUS/);
  expect(list.stdout).toContain('cli-user-1');
  const got = await cli('users', 'get', 'cli-user-1', '--json');
  const user = JSON.parse(got.stdout);
  expect(user.uid).toBe('cli-user-1');
  await postMeasurements(t.client, user.mobile.token, 3, 'cli');
  const day = (o: number) => new Date(Date.now() + o * 86_400_000).toISOString().slice(0, 10);
  const table = await cli('records', 'measurements', '--user', 'cli-user-1', '--from', day(-1), '--to', day(1));
  expect(table.stdout).toMatch(/body_weight=/);
  expect(table.stdout).toMatch(/3 measurements/);
  const json = await cli('records', 'measurements', '--user', 'cli-user-1', '--from', day(-1), '--to', day(1), '--json');
  expect(JSON.parse(json.stdout).data).toHaveLength(3);
});

it('users update and delete, streams get, whoami, the marketplace URL whole in tables, and logout', async () => {
  expect((await cli('users', 'create', 'cli-user-2')).code).toBe(0);
  const updated = await cli('users', 'update', 'cli-user-2', '--timezone', 'Asia/Tokyo', '--json');
  expect(JSON.parse(updated.stdout).location).toEqual({ timezone: 'Asia/Tokyo', country_code: null });
  const shown = await cli('users', 'get', 'cli-user-2');
  const url = (await t.client.users.get(t.orgId, 'cli-user-2')).marketplace.url;
  expect(shown.stdout).toContain(url);
  expect((await cli('users', 'update', 'cli-user-2')).code).toBe(2);
  const deleted = await cli('users', 'delete', 'cli-user-2');
  expect(deleted).toMatchObject({ code: 0, stdout: expect.stringMatching(/^deleted user cli-user-2 /) });
  expect((await cli('users', 'get', 'cli-user-2')).code).toBe(1);

  const stream = await t.client.streams.create({ name: 'cli-get' });
  expect((await cli('streams', 'get', stream.id)).stdout).toMatch(new RegExp(`${stream.id}\\s+cli-get\\s+0`));
  const who = JSON.parse((await cli('whoami', '--json')).stdout);
  expect(who).toMatchObject({ base_url: platform.baseUrl, organization_id: t.orgId, token: `${t.token.slice(0, 12)}…`, rate_limit: { limit: expect.any(Number) } });
  expect(JSON.stringify(who)).not.toContain(t.token);
  await t.client.streams.delete(stream.id);

  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-logout-'));
  const inOther = (...argv: string[]) => {
    let stdout = '';
    return runCli(argv, { stdout: (s) => (stdout += s), stderr: () => undefined, env: { WELLSTREAM_CONFIG_DIR: elsewhere } }).then((code) => ({ code, stdout }));
  };
  expect((await inOther('login', '--base-url', platform.baseUrl, '--token', t.token)).code).toBe(0);
  expect((await inOther('logout')).stdout).toMatch(/^Logged out; removed .*config\.json\n$/);
  expect(fs.existsSync(path.join(elsewhere, 'config.json'))).toBe(false);
  expect((await inOther('streams', 'list')).code).toBe(2);
  expect((await inOther('logout')).stdout).toBe('Not logged in\n');
});

it('ingest posts a file of records; streams by name; notifications target set, get and delete', async () => {
  expect((await cli('users', 'create', 'cli-user-3')).code).toBe(0);
  const at = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  const lines = [0, 1, 2].map((i) => JSON.stringify({ type: 'measurement', source: { type: 'withings' }, log_id: `file-${i}`, start_time: at(i), end_time: at(i), metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + i, origin: 'device' }] }));
  const file = path.join(configDir, 'records.ndjson');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const posted = await cli('ingest', file, '--user', 'cli-user-3', '--json');
  expect(posted.code).toBe(0);
  expect(JSON.parse(posted.stdout)).toEqual({ user: 'cli-user-3', posted: 3, stored: 3 });
  const day = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  expect(JSON.parse((await cli('records', 'measurements', '--user', 'cli-user-3', '--from', yesterday, '--to', day, '--json')).stdout).data).toHaveLength(3);
  fs.writeFileSync(file, '{"nope":1}');
  expect((await cli('ingest', file, '--user', 'cli-user-3')).code).toBe(2);

  const stream = await t.client.streams.create({ name: 'by-name' });
  expect(JSON.parse((await cli('streams', 'get', 'by-name', '--json')).stdout).id).toBe(stream.id);
  expect((await cli('streams', 'get', 'no-such-name')).stderr).toMatch(/^wellstream: 404 Stream no-such-name not found/);
  expect((await cli('streams', 'delete', 'by-name')).stdout).toContain(`deleted stream ${stream.id}`);

  expect((await cli('notifications', 'target', 'set', 'http://127.0.0.1:9/hook', '--secret', 'sixteen-chars-secret')).stdout).toBe('push target set to http://127.0.0.1:9/hook\n');
  expect(JSON.parse((await cli('notifications', 'target', 'get', '--json')).stdout).url).toBe('http://127.0.0.1:9/hook');
  expect((await cli('notifications', 'target', 'delete')).stdout).toBe('push target removed\n');
  expect((await cli('notifications', 'target', 'get')).code).toBe(1);
});

it('streams create, list and delete', async () => {
  const created = JSON.parse((await cli('streams', 'create', 'cli-stream', '--resources', 'measurement', '--json')).stdout);
  expect(created).toMatchObject({ name: 'cli-stream', resource_filter: ['measurement'] });
  expect((await cli('streams', 'list')).stdout).toContain(created.id);
  expect((await cli('streams', 'delete', created.id)).stdout).toContain(`deleted stream ${created.id}`);
  const again = await cli('streams', 'delete', created.id, '--json');
  expect(again.code).toBe(1);
  expect(JSON.parse(again.stderr).error).toMatchObject({ status: 404, body: { errors: [expect.any(String)] } });
});

it('answers bad usage with usage and exit 2', async () => {
  for (const argv of [['users', 'list', '--bogus'], ['records', 'sleep'], ['records', 'naps', '--user', 'u'], ['records', 'sleep', '--user', 'u', '--from', 'yesterday'], ['frobnicate'], ['listen', 's', '--forward-to', 'not a url']]) {
    const r = await cli(...argv);
    expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }
  expect((await cli('--help')).code).toBe(0);
});

it('the executable: one line and exit 1 for an unreachable server, exit 2 for a wrong flag, no stack trace', async () => {
  const main = path.resolve(__dirname, '../dist/main.js');
  const run = (...argv: string[]) =>
    promisify(execFile)(process.execPath, [main, ...argv], { env: { ...process.env, WELLSTREAM_CONFIG_DIR: configDir }, timeout: 30_000 }).then(
      (r) => ({ code: 0, ...r }),
      (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
    );
  const down = await run('streams', 'list', '--base-url', `http://127.0.0.1:${await freePort()}/v2`, '--token', 'any', '--no-retry');
  expect(down.code).toBe(1);
  expect(down.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^wellstream: cannot reach the server: .*ECONNREFUSED/)]);
  const wrong = await run('streams', 'list', '--frobnicate');
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toMatch(/unknown option '--frobnicate'/);
  expect(`${down.stderr}${wrong.stderr}`).not.toMatch(/\n\s+at /);
});

it("tail watches a stream read-only: the stream's own client still receives every event", async () => {
  const stream = await t.client.streams.create({ name: 'cli-tail', event_type_filter: ['data'] });
  const production: string[] = [];
  const client = t.client.streams.connect(stream.id);
  const reading = (async () => {
    for await (const e of client) if (e.type === 'data') production.push((e.data as { log_id: string }).log_id);
  })();
  const stop = new AbortController();
  let stdout = '';
  let stderr = '';
  const run = runCli(['tail', stream.id, '--json'], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { WELLSTREAM_CONFIG_DIR: configDir }, signal: stop.signal });
  try {
    await waitFor(() => /connected to the tail of stream/.test(stderr));
    await new Promise((r) => setTimeout(r, 300));
    await t.client.users.create(t.orgId, { uid: 'cli-tail-1' });
    const sent = await postMeasurements(t.client, (await t.client.users.get(t.orgId, 'cli-tail-1')).mobile.token, 20, 'tail');
    const tailed = () => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).data?.log_id);
    await waitFor(() => production.length >= 20 && tailed().length >= 20);
    expect([...production].sort()).toEqual([...sent].sort());
    expect([...tailed()].sort()).toEqual([...sent].sort());
    expect((await t.client.streams.get(stream.id)).members).toBe(1);
  } finally {
    stop.abort();
    client.close();
    await reading;
  }
  expect(await run).toBe(0);
});

async function waitFor(cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
