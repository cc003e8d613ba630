/**
 * FHIR Bulk Data export through the gateway, on both runtimes: kick-off (Patient and Group), polling,
 * the manifest's signed links and their NDJSON files (counted against the search API), `_type` and
 * `_since`, cancellation, tenancy (another organization's token, another customer's export, a
 * deleted user absent), bad requests as OperationOutcome, the audit log. On the embedded runtime
 * every exported line also goes through the HL7 validator.
 */
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { ApiClient, createTenant, eventually, FhirValidator, formatFhirMessages, Tenant, TEST_ADMIN_TOKEN, testRuntime } from '@wellstream/testing';
import { createUser, isoDay, sampleRecord, TestUser } from './records-fixtures';

const ASYNC = { headers: { prefer: 'respond-async' } };

describe(`FHIR Bulk Data export (${testRuntime()})`, () => {
  let platform: TestPlatform;
  let a: Tenant;
  let b: Tenant;
  let users: TestUser[];
  const day = isoDay(-2);
  const base = (t: Tenant) => `/organizations/${t.organizationId}/fhir`;
  const relative = (url: string) => url.slice(url.indexOf('/v2') + 3);
  const expectOutcome = (res: { status: number; headers: Headers; body: any }, status: number, code: string) => {
    expect([res.status, res.headers.get('content-type'), res.body?.resourceType, res.body?.issue?.[0]?.code]).toEqual([status, 'application/fhir+json; charset=utf-8', 'OperationOutcome', code]);
  };

  /** Kicks off, polls until done, answers the manifest and each file's lines. */
  async function exportOf(t: Tenant, path: string) {
    const kick = await t.api.get(`${base(t)}/${path}`, ASYNC);
    expect(kick.status).toBe(202);
    const status = relative(kick.headers.get('content-location')!);
    const done = await eventually(async () => {
      const res = await t.api.get(status);
      if (res.status === 202) expect(res.headers.get('x-progress')).toMatch(/of \d+ users/);
      return res.status === 200 ? res : undefined;
    }, 60_000, 100);
    const files: Record<string, any[]> = {};
    for (const o of done.body.output as { type: string; url: string; count: number }[]) {
      const file = await new ApiClient(platform.baseUrl).get(relative(o.url));
      expect([file.status, file.headers.get('content-type')]).toEqual([200, 'application/fhir+ndjson']);
      files[o.type] = file.text.trim().split('\n').map((l) => JSON.parse(l));
      expect(files[o.type]).toHaveLength(o.count);
    }
    return { status, manifest: done.body, files };
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ mode: testRuntime(), label: 'fhir-export' });
    a = await createTenant(platform.baseUrl);
    b = await createTenant(platform.baseUrl);
    users = [await createUser(platform.baseUrl, a), await createUser(platform.baseUrl, a), await createUser(platform.baseUrl, a)];
    for (const u of users) {
      const posted = await u.mobile.post('/mobile/records', { records: ['measurement', 'sleep', 'summary', 'workout', 'cgm'].map((t) => sampleRecord(t, day)) });
      expect(posted.status).toBe(200);
    }
    const other = await createUser(platform.baseUrl, b);
    expect((await other.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status).toBe(200);
    // A deleted user is never exported.
    expect((await a.api.delete(`/organizations/${a.organizationId}/users/${users[2].uid}`)).status).toBe(200);
  }, 120_000);

  afterAll(async () => platform?.stop(), 60_000);

  it('exports every live Patient, their Observations and Devices, as many as the search API answers', async () => {
    const { manifest, files } = await exportOf(a, 'Patient/$export');
    expect(manifest).toMatchObject({ requiresAccessToken: false, error: [], request: expect.stringContaining('/fhir/Patient/$export') });
    expect(manifest.output.map((o: { type: string }) => o.type)).toEqual(['Patient', 'Observation', 'Device']);
    expect(files.Patient.map((p) => p.id).sort()).toEqual([users[0].uid, users[1].uid].sort());
    for (const u of users.slice(0, 2)) {
      const searched = await a.api.get(`${base(a)}/Observation?patient=${u.uid}&date=${day}&_count=1000`);
      const exported = files.Observation.filter((o) => o.subject.reference === `Patient/${u.uid}`);
      expect(exported.map((o) => o.id).sort()).toEqual(searched.body.entry.map((e: any) => e.resource.id).sort());
    }
    expect(files.Observation.some((o) => o.subject.reference === `Patient/${users[2].uid}`)).toBe(false);
    expect(new Set(files.Device.map((d) => d.patient.reference))).toEqual(new Set(users.slice(0, 2).map((u) => `Patient/${u.uid}`)));
  }, 90_000);

  it('exports the Group of the organization, only the _type asked, only what was stored since _since', async () => {
    const group = await exportOf(a, `Group/${a.organizationId}/$export?_type=Patient,Device`);
    expect(Object.keys(group.files).sort()).toEqual(['Device', 'Patient']);
    const later = await exportOf(a, `Patient/$export?_since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(later.manifest.output.map((o: { type: string }) => o.type)).toEqual(['Patient']);
  }, 90_000);

  it('cancels an export with DELETE; its status is then gone', async () => {
    const { status } = await exportOf(a, 'Patient/$export?_type=Patient');
    expectOutcome(await a.api.delete(status), 202, 'informational');
    expectOutcome(await a.api.get(status), 404, 'not-found');
    expectOutcome(await a.api.delete(status), 404, 'not-found');
  }, 60_000);

  it("refuses another organization's token, another customer's export, a forged or foreign link", async () => {
    const { status, manifest } = await exportOf(a, 'Patient/$export?_type=Patient');
    expectOutcome(await b.api.get(status), 401, 'login');
    expectOutcome(await b.api.get(`${base(b)}/$export-status/${status.split('/').pop()}`), 404, 'not-found');
    const url = relative(manifest.output[0].url);
    // The signature's first character changed (to another: a signature that already began with 0 once passed).
    const forged = url.replace(/signature=(.)/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    expect(forged).not.toBe(url);
    expectOutcome(await new ApiClient(platform.baseUrl).get(forged), 401, 'login');
    expectOutcome(await new ApiClient(platform.baseUrl).get(url.replace('/Patient?', '/Device?')), 401, 'login');
  }, 60_000);

  it('answers bad kick-offs with a 4xx OperationOutcome', async () => {
    expectOutcome(await a.api.get(`${base(a)}/Patient/$export`), 400, 'invalid');
    for (const q of ['_since=yesterday', '_since=2026-02-30T00:00:00Z', '_type=Encounter', '_type=', '_outputFormat=xml', 'foo=1']) {
      expectOutcome(await a.api.get(`${base(a)}/Patient/$export?${q}`, ASYNC), 400, 'invalid');
    }
    expectOutcome(await a.api.get(`${base(a)}/Group/${b.organizationId}/$export`, ASYNC), 404, 'not-found');
    expectOutcome(await a.api.get(`${base(a)}/$export-status/fx_nope`), 404, 'not-found');
  });

  it('records the export in the audit log', async () => {
    const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    const entries = await eventually(async () => {
      const res = await admin.get(`/admin/audit_log?customer_id=${a.customerId}&action=fhir.export`);
      return res.body.data.length > 0 ? res.body.data : undefined;
    }, 20_000);
    expect(entries[0]).toMatchObject({ action: 'fhir.export', actor: `customer:${a.customerId}`, organization_id: a.organizationId, details: { export_id: expect.stringMatching(/^fx_/) } });
  });

  it("drops the organization's exports when one of its users is erased (the files hold them)", async () => {
    const { status, manifest } = await exportOf(a, 'Patient/$export?_type=Observation');
    const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    expect((await admin.post(`/admin/organizations/${a.organizationId}/users/${users[2].uid}/erasure`)).status).toBe(200);
    await eventually(async () => (await a.api.get(status)).status === 404, 20_000, 100);
    expectOutcome(await new ApiClient(platform.baseUrl).get(relative(manifest.output[0].url)), 404, 'not-found');
  }, 60_000);

  if (testRuntime() === 'embedded') {
    it("exports files whose every line the HL7 validator accepts (zero errors)", async () => {
      const { files } = await exportOf(a, 'Patient/$export');
      const validator = await FhirValidator.start();
      try {
        const failures: string[] = [];
        for (const r of Object.values(files).flat()) {
          const errors = await validator.errors(r);
          if (errors.length) failures.push(`${r.resourceType}/${r.id}: ${formatFhirMessages(errors)}`);
        }
        expect(failures).toEqual([]);
      } finally {
        await validator.stop();
      }
    }, 300_000);
  }
});
