/**
 * Services believe only the gateway (issue: forged identity). The whole platform in-process, the
 * services reached on their own ports exactly as anything on the services' network could:
 * forged identity headers, assertions signed for another request or under an unknown key, and a
 * validly signed caller naming another customer's organization are all refused; during a key
 * rotation both keys are accepted.
 */
import { ApiClient, createTenant, gatewayHeaders, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

jest.setTimeout(60_000);

const NEW_KEY = 'rotation-new-key-'.padEnd(44, 'n');
const OLD_KEY = 'rotation-old-key-'.padEnd(44, 'o');

let platform: TestPlatform;
let victim: Tenant;
let attacker: Tenant;
const uid = 'trust-user-1';
let streamId: string;
let ruleId: string;

const serviceUrl = (name: string) => platform.services.find((s) => s.name === name)!.url;

/** One customer-facing read per service, on the victim's data. */
const reads = () => [
  { service: 'users', target: `/v2/organizations/${victim.organizationId}/users/${uid}` },
  { service: 'users', target: `/v2/organizations/${victim.organizationId}/users` },
  { service: 'records', target: `/v2/organizations/${victim.organizationId}/users/${uid}/summaries` },
  { service: 'streams', target: `/v2/streams/${streamId}` },
  { service: 'streams', target: '/v2/streams' },
  { service: 'notifications', target: `/v2/organizations/${victim.organizationId}/notification_target` },
  { service: 'rules', target: `/v2/organizations/${victim.organizationId}/users/${uid}/rules/${ruleId}` },
];
const orgReads = () => reads().filter((r) => r.target.includes('/organizations/'));

const direct = (service: string, target: string, headers: Record<string, string>, method = 'GET') =>
  fetch(serviceUrl(service) + target, { method, headers });

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WELLSTREAM_GATEWAY_KEYS: `${NEW_KEY},${OLD_KEY}`, WELLSTREAM_RULES_ENABLED: 'true' } });
  victim = await createTenant(platform.baseUrl, { name: 'Victim' });
  attacker = await createTenant(platform.baseUrl, { name: 'Attacker' });
  expect((await victim.api.post(`/organizations/${victim.organizationId}/users`, { uid })).status).toBe(201);
  streamId = (await victim.api.post('/streams', { name: 'victim stream' })).body.id;
  expect((await victim.api.put(`/organizations/${victim.organizationId}/notification_target`, { url: 'http://127.0.0.1:9/hook' })).status).toBe(200);
  const rule = await victim.api.post(`/organizations/${victim.organizationId}/users/${uid}/rules`, {
    type: 'user/missing_data',
    window: 'P3D',
    message: 'Please weigh yourself',
    metric: { type: 'body_weight' },
    threshold: { value: 1, comparator: 'less_than' },
  });
  expect(rule.status).toBe(201);
  ruleId = rule.body.id;
});
afterAll(() => platform?.stop());

describe('gateway-to-service trust', () => {
  it('serves every read through the gateway (the gateway signs with the first key)', async () => {
    for (const r of reads()) {
      const res = await victim.api.get(r.target.replace(/^\/v2/, ''));
      expect([r.target, res.status]).toEqual([r.target, 200]);
    }
  });

  it('answers 401 {"message"} from every service to forged identity headers without a signature', async () => {
    const forged = { 'x-wellstream-customer-id': victim.customerId, 'x-wellstream-organization-id': victim.organizationId, 'x-request-id': 'forged-1' };
    for (const r of reads()) {
      const res = await direct(r.service, r.target, forged);
      expect([r.target, res.status, await res.json()]).toEqual([r.target, 401, { message: expect.any(String) }]);
    }
    const create = await direct('users', `/v2/organizations/${victim.organizationId}/users`, { ...forged, 'content-type': 'application/json' }, 'POST');
    expect(create.status).toBe(401);
    const suspend = await direct('users', `/v2/admin/organizations/${victim.organizationId}/users/${uid}/suspend`, { 'x-wellstream-admin': '1' }, 'POST');
    expect(suspend.status).toBe(401);
  });

  it('answers 401 to an assertion signed for one path and replayed on another, or under an unknown key', async () => {
    const caller = { customerId: victim.customerId, organizationId: victim.organizationId };
    const signedForStreams = gatewayHeaders(NEW_KEY, 'GET', '/v2/streams', caller);
    expect((await direct('streams', '/v2/streams', signedForStreams)).status).toBe(200);
    for (const r of reads().filter((x) => x.target !== '/v2/streams')) {
      expect([r.target, (await direct(r.service, r.target, signedForStreams)).status]).toEqual([r.target, 401]);
    }
    const unknownKey = 'someone-elses-key-'.padEnd(44, 'x');
    for (const r of reads()) {
      expect([r.target, (await direct(r.service, r.target, gatewayHeaders(unknownKey, 'GET', r.target, caller))).status]).toEqual([r.target, 401]);
    }
  });

  it('accepts both keys of a rotation at every service', async () => {
    const caller = { customerId: victim.customerId, organizationId: victim.organizationId };
    for (const key of [NEW_KEY, OLD_KEY]) {
      for (const r of reads()) {
        expect([r.target, (await direct(r.service, r.target, gatewayHeaders(key, 'GET', r.target, caller))).status]).toEqual([r.target, 200]);
      }
    }
  });

  it('checks for itself that the organization in the path belongs to the caller (a signed caller of another customer gets 401 {"errors"})', async () => {
    // Defence in depth: even a validly signed assertion cannot make a service serve an organization
    // its projection says belongs to another customer.
    for (const r of orgReads()) {
      const headers = gatewayHeaders(NEW_KEY, 'GET', r.target, { customerId: attacker.customerId, organizationId: victim.organizationId });
      const res = await direct(r.service, r.target, headers);
      expect([r.target, res.status, await res.json()]).toEqual([r.target, 401, { errors: [expect.any(String)] }]);
    }
    // And through the gateway, the attacker's token gets the same answer.
    const api = new ApiClient(platform.baseUrl, attacker.token);
    expect((await api.get(`/organizations/${victim.organizationId}/users/${uid}`)).status).toBe(401);
  });
});
