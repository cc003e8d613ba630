/**
 * Profiles against a running platform: two customers' logins saved under two names, chosen by
 * --profile, WELLSTREAM_PROFILE or `profiles use`; `profiles list` and `remove`; logout of one
 * profile keeps the others; and a config file of the earlier single-login form keeps working,
 * read as the profile "default" and written in the new form only on the next save.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { runCli } from '../src';
import { sdkTenant, SdkTenant } from '../../sdk/test/sdk-fixtures';

jest.setTimeout(60_000);
let platform: TestPlatform;
let first: SdkTenant;
let second: SdkTenant;

beforeAll(async () => {
  platform = await startTestPlatform();
  first = await sdkTenant(platform.baseUrl);
  second = await sdkTenant(platform.baseUrl);
  await first.client.users.create(first.orgId, { uid: 'first-customer-user' });
  await second.client.users.create(second.orgId, { uid: 'second-customer-user' });
});
afterAll(() => platform?.stop());

function cliIn(dir: string, env: NodeJS.ProcessEnv = {}) {
  return async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { WELLSTREAM_CONFIG_DIR: dir, ...env } });
    return { code, stdout, stderr };
  };
}
const freshDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-profiles-'));
const readConfig = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));

it('saves two logins as profiles and picks one by --profile, WELLSTREAM_PROFILE or `profiles use`', async () => {
  const dir = freshDir();
  const cli = cliIn(dir);
  expect((await cli('login', '--base-url', platform.baseUrl, '--token', first.token, '--org', first.orgId)).code).toBe(0);
  const staging = await cli('login', '--profile', 'staging', '--base-url', platform.baseUrl, '--token', second.token, '--org', second.orgId);
  expect(staging).toMatchObject({ code: 0, stdout: expect.stringMatching(/ as profile staging; saved to /) });
  expect(readConfig(dir)).toEqual({
    current_profile: 'default',
    profiles: { default: { base_url: platform.baseUrl, token: first.token, organization_id: first.orgId }, staging: { base_url: platform.baseUrl, token: second.token, organization_id: second.orgId } },
  });
  expect(fs.statSync(path.join(dir, 'config.json')).mode & 0o777).toBe(0o600);

  const uids = async (out: Promise<{ stdout: string }>) => (JSON.parse((await out).stdout).data as { uid: string }[]).map((u) => u.uid);
  expect(await uids(cli('users', 'list', '--json'))).toEqual(['first-customer-user']);
  expect(await uids(cli('users', 'list', '--json', '--profile', 'staging'))).toEqual(['second-customer-user']);
  expect(await uids(cliIn(dir, { WELLSTREAM_PROFILE: 'staging' })('users', 'list', '--json'))).toEqual(['second-customer-user']);
  // The flag wins over the environment.
  expect(await uids(cliIn(dir, { WELLSTREAM_PROFILE: 'staging' })('users', 'list', '--json', '--profile', 'default'))).toEqual(['first-customer-user']);

  const listed = await cli('profiles', 'list');
  expect(listed.stdout.split('\n')[0]).toMatch(/^CURRENT\s+NAME\s+BASE_URL\s+ORGANIZATION_ID\s+TOKEN$/);
  expect(listed.stdout).toMatch(new RegExp(`^\\*\\s+default\\s+${platform.baseUrl}\\s+${first.orgId}\\s+${first.token.slice(0, 12)}…$`, 'm'));
  expect(listed.stdout).toMatch(new RegExp(`^\\s+staging\\s+${platform.baseUrl}\\s+${second.orgId}`, 'm'));
  expect(listed.stdout).not.toContain(first.token);

  expect(await cli('profiles', 'use', 'staging')).toMatchObject({ code: 0, stdout: 'Using profile staging\n' });
  expect(await uids(cli('users', 'list', '--json'))).toEqual(['second-customer-user']);
  const json = JSON.parse((await cli('profiles', 'list', '--json')).stdout);
  expect(json).toMatchObject({ in_use: 'staging', profiles: [{ name: 'default', current: false }, { name: 'staging', current: true }] });
  expect((await cli('whoami', '--json', '--profile', 'default')).stdout).toContain(first.orgId);

  const unknown = await cli('profiles', 'use', 'nope');
  expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('no profile "nope": one of default, staging') });
  expect((await cli('users', 'list', '--profile', 'no such')).code).toBe(2);
  const ghost = await cli('users', 'list', '--profile', 'ghost');
  expect(ghost).toMatchObject({ code: 2, stderr: expect.stringContaining('not logged in (profile ghost): run `wellstream login --profile ghost') });

  expect(await cli('profiles', 'remove', 'staging')).toMatchObject({ code: 0, stdout: 'Removed profile staging (its token with it)\n' });
  expect(readConfig(dir)).toEqual({ profiles: { default: expect.objectContaining({ token: first.token }) } });
  expect(await uids(cli('users', 'list', '--json'))).toEqual(['first-customer-user']);
  expect((await cli('profiles', 'remove', 'staging')).code).toBe(2);
});

it('logout forgets only the profile in use; the file goes with the last one', async () => {
  const dir = freshDir();
  const cli = cliIn(dir);
  await cli('login', '--base-url', platform.baseUrl, '--token', first.token);
  await cli('login', '--profile', 'other', '--base-url', platform.baseUrl, '--token', second.token);
  expect((await cli('logout', '--profile', 'other')).stdout).toMatch(/^Logged out \(profile other\); the other profiles stay in .*config\.json\n$/);
  expect(Object.keys(readConfig(dir).profiles)).toEqual(['default']);
  expect((await cli('logout', '--profile', 'other')).stdout).toBe('Not logged in (profile other)\n');
  expect((await cli('logout')).stdout).toMatch(/^Logged out; removed .*config\.json\n$/);
  expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(false);
});

it('a config file of the single-login form keeps working as the profile "default", rewritten only on the next save', async () => {
  const dir = freshDir();
  const file = path.join(dir, 'config.json');
  const old = JSON.stringify({ base_url: platform.baseUrl, token: first.token, organization_id: first.orgId, forward_secret: 'wsf_kept' }, null, 2) + '\n';
  fs.writeFileSync(file, old, { mode: 0o600 });
  const cli = cliIn(dir);
  expect(JSON.parse((await cli('whoami', '--json')).stdout)).toMatchObject({ base_url: platform.baseUrl, organization_id: first.orgId });
  expect(JSON.parse((await cli('users', 'list', '--json')).stdout).data.map((u: { uid: string }) => u.uid)).toEqual(['first-customer-user']);
  expect(JSON.parse((await cli('profiles', 'list', '--json')).stdout).profiles).toEqual([{ name: 'default', current: true, base_url: platform.baseUrl, organization_id: first.orgId, token: `${first.token.slice(0, 12)}…` }]);
  expect(fs.readFileSync(file, 'utf8')).toBe(old);

  expect((await cli('login', '--profile', 'second', '--base-url', platform.baseUrl, '--token', second.token)).code).toBe(0);
  expect(readConfig(dir)).toEqual({
    current_profile: 'default',
    profiles: { default: { base_url: platform.baseUrl, token: first.token, organization_id: first.orgId, forward_secret: 'wsf_kept' }, second: { base_url: platform.baseUrl, token: second.token } },
  });
});
