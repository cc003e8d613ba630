/**
 * A property-based fuzzer of the published document (schemathesis, from PyPI, in a cached
 * virtualenv that ensure-schemathesis.sh makes) against the embedded platform: generated valid and
 * invalid requests for every operation, then stateful sequences through the document's links. The
 * run fails on any 5xx and on any status code, content type, header or body that the document does
 * not allow. Bounded: examples per operation and a time budget (WELLSTREAM_FUZZ_MAX_EXAMPLES,
 * WELLSTREAM_FUZZ_MAX_TIME_S).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ApiClient, createTenant, TEST_ADMIN_TOKEN } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

const run = promisify(execFile);
const MAX_EXAMPLES = Number(process.env.WELLSTREAM_FUZZ_MAX_EXAMPLES ?? 15);
const MAX_TIME_S = Number(process.env.WELLSTREAM_FUZZ_MAX_TIME_S ?? 120);

jest.setTimeout((MAX_TIME_S + 240) * 1000);

let platform: TestPlatform;
let workDir: string;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WELLSTREAM_RULES_ENABLED: 'true', WELLSTREAM_POKE_INTERVAL_MS: '200' } });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-fuzz-'));
});
afterAll(async () => {
  await platform?.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

const toml = (s: string) => JSON.stringify(s);

it('schemathesis finds no server error and no answer the document does not allow', async () => {
  const { stdout: bin } = await run('bash', [path.join(__dirname, 'ensure-schemathesis.sh')], { timeout: 600_000 });
  const schemathesis = bin.trim().split('\n').pop()!;

  // Real ids for the path parameters, so generated requests reach real resources (and, through
  // the links, the ones the run creates itself). A token with room for every request.
  const tenant = await createTenant(platform.baseUrl, { rateLimitPerHour: 1_000_000 });
  const api = tenant.api;
  const user = await api.post(`/organizations/${tenant.organizationId}/users`, { uid: 'fuzz-user', location: { timezone: 'Europe/Berlin' } });
  const stream = await api.post('/streams', { name: 'fuzz stream' });
  await api.put(`/organizations/${tenant.organizationId}/notification_target`, { url: 'http://127.0.0.1:9/fuzz' });
  const rule = await api.post(`/organizations/${tenant.organizationId}/users/fuzz-user/rules`, {
    type: 'user/missing_data',
    window: 'P3D',
    message: 'Please weigh yourself',
    metric: { type: 'body_weight' },
    threshold: { value: 1, comparator: 'less_than' },
  });
  expect([user.status, stream.status, rule.status]).toEqual([201, 201, 201]);
  // The operator API works on a customer of its own (it may delete it).
  const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
  const operatorCustomer = await admin.post('/admin/customers', { name: 'Fuzzed by the operator API' });

  const config = path.join(workDir, 'schemathesis.toml');
  fs.writeFileSync(
    config,
    [
      `base-url = ${toml(platform.baseUrl)}`,
      // An unknown mobile token is refused at once now (read-your-writes by log position), so no
      // answer comes near this.
      'request-timeout = 10.0',
      'max-stream-events = 2',
      `headers = { Authorization = ${toml(`Bearer ${tenant.token}`)} }`,
      '[generation]',
      `max-examples = ${MAX_EXAMPLES}`,
      // The token travels in the Authorization header; a generated `token` parameter would only test 401s.
      'with-security-parameters = false',
      '[parameters]',
      `"path.org_id" = ${toml(tenant.organizationId)}`,
      `"path.customer_id" = ${toml(operatorCustomer.body.id)}`,
      `"path.uid" = "fuzz-user"`,
      `"path.id" = ${toml(stream.body.id)}`,
      `"path.rule_id" = ${toml(rule.body.id)}`,
      `"path.token" = ${toml(user.body.marketplace.token)}`,
      // The operator API takes the admin token.
      '[[operations]]',
      'include-tag = "operator"',
      `headers = { Authorization = ${toml(`Bearer ${TEST_ADMIN_TOKEN}`)} }`,
    ].join('\n'),
  );
  const checks = [
    'not_a_server_error',
    'status_code_conformance',
    'content_type_conformance',
    'response_headers_conformance',
    'response_schema_conformance',
  ].join(',');
  const args = [
    '--config-file',
    config,
    'run',
    `${platform.baseUrl}/openapi.json`,
    '--checks',
    checks,
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--max-time',
    String(MAX_TIME_S),
    '--workers',
    '1',
    '--seed',
    '20261123',
    '--no-color',
    '--output-truncate',
    'true',
  ];
  const started = Date.now();
  const result = await run(schemathesis, args, { cwd: workDir, timeout: (MAX_TIME_S + 120) * 1000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string; killed?: boolean }) => ({ code: e.code ?? (e.killed ? 'timeout' : 1), out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
  const summary = result.out.split('\n').slice(-60).join('\n');
  process.stdout.write(`[fuzz] schemathesis ran ${Math.round((Date.now() - started) / 1000)} s, exit ${result.code}\n${summary}\n`);
  // The whole report stays beside the jest reports; the failure names schemathesis's own findings
  // (its ERRORS and FAILURES sections), not the tail, which a long generated body can fill.
  const artifacts = path.resolve(__dirname, '../../test-artifacts');
  fs.mkdirSync(artifacts, { recursive: true });
  fs.writeFileSync(path.join(artifacts, 'openapi-fuzz.log'), result.out);
  if (result.code !== 0) {
    const findings = result.out.match(/^=+ (ERRORS|FAILURES) =+$[\s\S]*?(?=^=+ (WARNINGS|SUMMARY) =+$)/gm)?.join('\n') ?? result.out;
    throw new Error(`schemathesis found answers that contradict the document (exit ${result.code}; whole report in test-artifacts/openapi-fuzz.log):\n${findings.slice(0, 20_000)}`);
  }
  // It did run: every operation of the document was exercised, with a real number of cases.
  const selected = /Selected: (\d+)\/(\d+)/.exec(result.out);
  const tested = /Tested: (\d+)/.exec(result.out);
  const cases = /(\d+) generated, (\d+) passed/.exec(result.out);
  expect(selected && tested && Number(tested[1]) === Number(selected[2])).toBe(true);
  expect(Number(cases?.[1] ?? 0)).toBeGreaterThan(300);
});
