/**
 * A Bulk Data export outlives the process that ran it: the platform stops with an export in
 * progress and starts again on the same data; a replica takes the job over once its lease lapsed,
 * and the export completes with every expected line exactly once. Finished exports expire after
 * WELLSTREAM_FHIR_EXPORT_RETENTION_MS (status and files then answer 404).
 */
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { ApiClient, createTenant, eventually, Tenant, testRuntime } from '@wellstream/testing';
import { createUser, isoDay, sampleRecord, TestUser } from './records-fixtures';

const ASYNC = { headers: { prefer: 'respond-async' } };
// Enough data that the export is still running when the platform stops (an intraday record maps to 72+ Observations).
const DAYS = 30;
const ENV = { WELLSTREAM_FHIR_EXPORT_LEASE_MS: '15000', WELLSTREAM_FHIR_EXPORT_RETENTION_MS: '8000' };

describe(`FHIR Bulk Data export across a restart (${testRuntime()})`, () => {
  let platform: TestPlatform;
  let t: Tenant;
  let api: ApiClient;
  let users: TestUser[];
  const base = () => `/organizations/${t.organizationId}/fhir`;
  const relative = (url: string) => url.slice(url.indexOf('/v2') + 3);

  async function linesOf(output: { type: string; url: string; count: number }[]) {
    const files: Record<string, any[]> = {};
    for (const o of output) {
      const file = await new ApiClient(platform.baseUrl).get(relative(o.url));
      expect(file.status).toBe(200);
      files[o.type] = file.text.trim().split('\n').map((l) => JSON.parse(l));
      expect(files[o.type]).toHaveLength(o.count);
    }
    return files;
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ mode: testRuntime(), label: 'fhir-export-restart', env: ENV });
    t = await createTenant(platform.baseUrl);
    api = t.api;
    users = [];
    for (let i = 0; i < 6; i++) users.push(await createUser(platform.baseUrl, t));
    for (const u of users) {
      for (let d = 1; d <= DAYS; d++) {
        const records = ['measurement', 'sleep', 'summary', 'workout', 'cgm', 'intraday', 'intraday', 'intraday'].map((type) => sampleRecord(type, isoDay(-d)));
        expect((await u.mobile.post('/mobile/records', { records })).status).toBe(200);
      }
    }
  }, 180_000);

  afterAll(async () => platform?.stop(), 60_000);

  it('completes an export that was in progress when the platform stopped, every line exactly once', async () => {
    const kick = await api.get(`${base()}/Patient/$export`, ASYNC);
    expect(kick.status).toBe(202);
    const status = relative(kick.headers.get('content-location')!);
    const before = await api.get(status);
    expect(before.status).toBe(202);

    // The same data: the data dir, and on real servers the same database and topic names (its env).
    const { env, dataDir } = platform;
    await platform.stop();
    platform = await startTestPlatform({ mode: testRuntime(), label: 'fhir-export-restart', env, dataDir });
    api = new ApiClient(platform.baseUrl, t.token);
    // Still in progress: nothing finished it before the stop, and no one takes it over before its
    // lease lapses. On real servers the platform's stop takes seconds (each service's consumers
    // leave Kafka) and this much data may be exported meanwhile, so only the embedded run can hold
    // the export midway for certain.
    if (testRuntime() === 'embedded') expect((await api.get(status)).status).toBe(202);

    const done = await eventually(async () => {
      const res = await api.get(status);
      expect([200, 202]).toContain(res.status);
      if (res.status === 202) expect(res.headers.get('x-progress')).toMatch(/of \d+ users/);
      return res.status === 200 ? res : undefined;
    }, 90_000, 200);
    const files = await linesOf(done.body.output);
    expect(files.Patient.map((p) => p.id).sort()).toEqual(users.map((u) => u.uid).sort());
    const ids = files.Observation.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const u of users) {
      const searched: string[] = [];
      for (let d = 1; d <= DAYS; d++) {
        const day = await api.get(`${base()}/Observation?patient=${u.uid}&date=${isoDay(-d)}&_count=1000`);
        expect(day.status).toBe(200);
        searched.push(...day.body.entry.map((e: any) => e.resource.id));
      }
      const exported = files.Observation.filter((o) => o.subject.reference === `Patient/${u.uid}`).map((o) => o.id).sort();
      expect(exported).toEqual(searched.sort());
    }
    const devices = files.Device.map((d) => d.id);
    expect(new Set(devices).size).toBe(devices.length);
  }, 180_000);

  it('removes a finished export and its files once the retention time passed', async () => {
    const kick = await api.get(`${base()}/Patient/$export?_type=Patient`, ASYNC);
    const status = relative(kick.headers.get('content-location')!);
    const done = await eventually(async () => {
      const res = await api.get(status);
      return res.status === 200 ? res : undefined;
    }, 60_000, 100);
    const url = relative(done.body.output[0].url);
    expect((await new ApiClient(platform.baseUrl).get(url)).status).toBe(200);
    await eventually(async () => {
      expect((await api.get(status)).status).toBe(404);
      return true;
    }, 30_000, 500);
    expect((await new ApiClient(platform.baseUrl).get(url)).status).toBe(404);
  }, 120_000);
});
