/**
 * Lists read whole against a real platform: every user over several pages, and records over a
 * range longer than the API's 30 days, asked window by window.
 */
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { ParameterError, Wellstream } from '../src';
import { sdkTenant } from './sdk-fixtures';

jest.setTimeout(90_000);
let platform: TestPlatform;
beforeAll(async () => (platform = await startTestPlatform()));
afterAll(() => platform?.stop());

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
