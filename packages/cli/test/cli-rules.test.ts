/**
 * `wellstream rules …` against a running platform: refused while the feature is off for the
 * organization, then create, list, get, update (the fields given change, the others stay) and
 * delete a user's adherence rule; missing or malformed flags are usage errors (exit 2), what the
 * API refuses an error answer (exit 1).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { runCli } from '../src';
import { sdkTenant, SdkTenant } from '../../sdk/test/sdk-fixtures';

jest.setTimeout(60_000);
let platform: TestPlatform;
let t: SdkTenant;
let configDir: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  t = await sdkTenant(platform.baseUrl);
  await t.client.users.create(t.orgId, { uid: 'rule-user' });
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-rules-'));
});
afterAll(() => platform?.stop());

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--base-url', platform.baseUrl, '--token', t.token, '--org', t.orgId], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { WELLSTREAM_CONFIG_DIR: configDir } });
  return { code, stdout, stderr };
}

const fields = ['--window', 'P3D', '--message', 'weigh in', '--metric', 'body_weight', '--threshold', '1', '--comparator', 'less_than'];

it('create, list, get, update and delete a rule once the operator enables the feature', async () => {
  const off = await cli('rules', 'create', '--user', 'rule-user', ...fields);
  expect(off).toMatchObject({ code: 1, stderr: expect.stringMatching(/^wellstream: 422 .*the rules feature is disabled/) });

  await t.admin.admin.updateOrganizationSettings(t.orgId, { rules_enabled: true });
  const created = await eventually(async () => {
    const r = await cli('rules', 'create', '--user', 'rule-user', ...fields, '--json');
    return r.code === 0 ? JSON.parse(r.stdout) : undefined;
  });
  expect(created).toMatchObject({ id: expect.any(String), type: 'user/missing_data', window: 'P3D', message: 'weigh in', metric: { type: 'body_weight' }, threshold: { value: 1, comparator: 'less_than' } });

  const listed = await cli('rules', 'list', '--user', 'rule-user');
  expect(listed.stdout).toMatch(/^ID\s+TYPE\s+WINDOW\s+METRIC\.TYPE\s+THRESHOLD\.COMPARATOR\s+THRESHOLD\.VALUE\s+MESSAGE\n/);
  expect(listed.stdout).toMatch(new RegExp(`^${created.id}\\s+user/missing_data\\s+P3D\\s+body_weight\\s+less_than\\s+1\\s+weigh in$`, 'm'));
  expect(JSON.parse((await cli('rules', 'get', created.id, '--user', 'rule-user', '--json')).stdout)).toEqual(created);

  const updated = JSON.parse((await cli('rules', 'update', created.id, '--user', 'rule-user', '--window', 'P1W', '--origin', 'device', '--json')).stdout);
  expect(updated).toMatchObject({ id: created.id, window: 'P1W', message: 'weigh in', metric: { type: 'body_weight', origin: 'device' }, threshold: { value: 1, comparator: 'less_than' } });
  const anyOrigin = JSON.parse((await cli('rules', 'update', created.id, '--user', 'rule-user', '--origin', 'any', '--threshold', '2.5', '--json')).stdout);
  expect(anyOrigin).toMatchObject({ window: 'P1W', metric: { origin: null }, threshold: { value: 2.5 } });

  expect(await cli('rules', 'delete', created.id, '--user', 'rule-user')).toMatchObject({ code: 0, stdout: `deleted rule ${created.id}\n` });
  expect((await cli('rules', 'get', created.id, '--user', 'rule-user')).code).toBe(1);
  expect(JSON.parse((await cli('rules', 'list', '--user', 'rule-user', '--json')).stdout).data).toEqual([]);
});

it('missing or malformed flags are usage errors; what the API refuses is an error answer', async () => {
  const missing = await cli('rules', 'create', '--user', 'rule-user', '--window', 'P3D');
  expect(missing).toMatchObject({ code: 2, stderr: 'wellstream: rules create needs --message, --metric, --threshold, --comparator\n' });
  expect((await cli('rules', 'create', '--user', 'rule-user', ...fields.slice(0, -4), '--threshold', 'many', '--comparator', 'less_than')).stderr).toBe('wellstream: --threshold must be a number, got "many"\n');
  expect((await cli('rules', 'list')).code).toBe(2);
  expect((await cli('rules', 'update', 'some-rule', '--user', 'rule-user')).code).toBe(2);
  await t.admin.admin.updateOrganizationSettings(t.orgId, { rules_enabled: true });
  const refused = await eventually(async () => {
    const r = await cli('rules', 'create', '--user', 'rule-user', ...fields.slice(0, 4), '--metric', 'no_such_metric', ...fields.slice(6));
    return r.stderr.includes('disabled') ? undefined : r;
  });
  expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/^wellstream: 422 .*metric/) });
});
