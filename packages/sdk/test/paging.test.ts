/**
 * Lists read whole against a real platform: every user over several pages, and records over a
 * range longer than the API's 30 days, asked window by window; every other paged list (streams,
 * push batches, the operator's customers, organizations, tokens and audit log, FHIR Observation
 * searches) through its `listAll…` iterator with small pages, each request counted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { ParameterError, Wellstream } from '../src';
import { postMeasurements, sdkTenant } from './sdk-fixtures';

jest.setTimeout(90_000);
let platform: TestPlatform;
// One record per push batch, so a few records make several pages of batches.
beforeAll(async () => (platform = await startTestPlatform({ env: { WELLSTREAM_PUSH_BATCH_SIZE: '1' } })));
afterAll(() => platform?.stop());

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

it('users.listAll reads every page; records.listRange reads a 75-day range in 30-day windows', async () => {
  const t = await sdkTenant(platform.baseUrl);
  const uids = Array.from({ length: 105 }, (_, i) => `page-${String(i).padStart(3, '0')}`);
  for (const uid of uids) await t.client.users.create(t.orgId, { uid });
  const listed: string[] = [];
  for await (const user of t.client.users.listAll(t.orgId)) listed.push(user.uid);
  expect(listed.sort()).toEqual(uids);

  const { mobile } = await t.client.users.get(t.orgId, uids[0]);
  const day = (offset: number) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + offset * 86_400_000 + 3_600_000);
  const at = [-70, -40, -1].map(day);
  await t.client.mobile.ingest(mobile.token, {
    records: at.map((d, i) => ({ type: 'measurement', source: { type: 'withings' }, log_id: `range-${i}`, start_time: d, end_time: d, metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + i, origin: 'device' }] })),
  });
  const requests: string[] = [];
  const counting = new Wellstream({
    baseUrl: platform.baseUrl,
    token: t.token,
    onResponse: (r) => requests.push(`${r.method} ${r.path}`),
  });
  const found: string[] = [];
  for await (const r of counting.records.listRange(t.orgId, uids[0], 'measurements', { start_date: day(-74), end_date: day(0) })) found.push((r as { log_id: string }).log_id);
  expect(found).toEqual(['range-0', 'range-1', 'range-2']);
  expect(requests).toHaveLength(3);
  await expect(counting.records.listRange(t.orgId, uids[0], 'sleep', { start_date: 'soon', end_date: day(0) }).next()).rejects.toBeInstanceOf(ParameterError);
});

it('every other paged list reads whole over pages: streams, push batches, operator lists, FHIR Observations', async () => {
  const t = await sdkTenant(platform.baseUrl);
  const requests: string[] = [];
  const counted = (token: string) => new Wellstream({ baseUrl: platform.baseUrl, token, onResponse: (r) => requests.push(r.path) });
  const ws = counted(t.token);
  const admin = counted((t.admin as unknown as { http: { token: string } }).http.token);
  // Only the iterator under test uses these two clients while it runs: each request is one page.
  const pagesOf = async <T>(items: AsyncIterable<T>) => {
    requests.length = 0;
    const all = await collect(items);
    return { all, pages: requests.length };
  };

  const names = ['s1', 's2', 's3', 's4', 's5'];
  for (const name of names) await t.client.streams.create({ name });
  const streams = await pagesOf(ws.streams.listAll({ limit: 2 }));
  expect(streams.all.map((s) => s.name).sort()).toEqual(names);
  expect(streams.pages).toBe(3);

  const receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    await t.client.notifications.setTarget(t.orgId, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
    await t.client.users.create(t.orgId, { uid: 'pushed' });
    await postMeasurements(t.client, (await t.client.users.get(t.orgId, 'pushed')).mobile.token, 5, 'pushed');
    // Every batch delivered first: a batch sorts by its creation time until its first try, then by
    // that try's time, so a list read while batches are still being tried shifts under its offsets.
    const expected = await eventually(async () => {
      const page = await t.client.notifications.listBatches(t.orgId, { limit: 100 });
      return page.data.length >= 5 && page.data.every((b) => b.status === 'SUCCESS') ? page.data.map((b) => b.id).sort() : undefined;
    }, 60_000);
    const batches = await pagesOf(ws.notifications.listAllBatches(t.orgId, { limit: 2 }));
    expect(batches.all.map((b) => b.id).sort()).toEqual(expected);
    expect(batches.pages).toBe(Math.ceil(expected.length / 2));
  } finally {
    receiver.close();
  }

  await t.admin.admin.createOrganization(t.customerId, { name: 'second org' });
  await t.admin.admin.issueToken(t.customerId);
  const orgs = await pagesOf(admin.admin.listAllOrganizations(t.customerId, { limit: 1 }));
  expect(orgs.all.map((o) => o.id)).toContain(t.orgId);
  expect([orgs.all.length, orgs.pages]).toEqual([2, 2]);
  const tokens = await pagesOf(admin.admin.listAllTokens(t.customerId, { limit: 1 }));
  expect([tokens.all.length, tokens.pages]).toEqual([2, 2]);
  const customers = await t.admin.admin.listCustomers({ limit: 100 });
  expect(customers.data.length).toBeGreaterThan(1);
  const allCustomers = await pagesOf(admin.admin.listAllCustomers({ limit: 1 }));
  expect(allCustomers.all.map((c) => c.id).sort()).toEqual(customers.data.map((c) => c.id).sort());
  expect(allCustomers.pages).toBe(customers.data.length);
  // Audited operator requests: three exports of a user (their completions are other entries).
  for (let i = 0; i < 3; i++) await t.admin.admin.requestUserExport(t.orgId, 'pushed');
  const audit = await t.admin.admin.listAuditLog({ customer_id: t.customerId, action: 'export.requested', limit: 100 });
  expect(audit.data).toHaveLength(3);
  const allAudit = await pagesOf(admin.admin.listAllAuditLog({ customer_id: t.customerId, action: 'export.requested', limit: 2 }));
  expect(allAudit.all).toEqual(audit.data);
  expect(allAudit.pages).toBe(Math.ceil(audit.data.length / 2));

  const whole = (await t.client.fhir.searchObservations(t.orgId, { patient: 'pushed', _count: 1000 })) as unknown as { entry?: { resource: { id: string } }[] };
  expect(whole.entry?.length).toBeGreaterThanOrEqual(5);
  const observations = await pagesOf(ws.fhir.searchAllObservations(t.orgId, { patient: 'pushed', _count: 2 }));
  expect(observations.all.map((o) => o.id)).toEqual(whole.entry!.map((e) => e.resource.id));
  expect(observations.pages).toBe(Math.ceil(whole.entry!.length / 2));
});
