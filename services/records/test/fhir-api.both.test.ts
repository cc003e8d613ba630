/**
 * The FHIR R4 read API through the gateway, on both runtimes: the CapabilityStatement, Patient read
 * and search (reversible ids), Observation search with code, category and date filters and paging
 * by next links, Device read; tenancy (another organization's token, another customer's Patient),
 * a deleted user absent, bad parameters and the gateway's own 401 and 429 as OperationOutcome, and
 * every read in the audit log. On the embedded runtime the served resources also go through the
 * HL7 validator (the mapping is the same code on both).
 */
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { ApiClient, createTenant, eventually, FhirValidator, formatFhirMessages, Tenant, TEST_ADMIN_TOKEN, testRuntime } from '@wellstream/testing';
import { createUser, isoDay, newUid, sampleRecord, TestUser } from './records-fixtures';

const LOINC = 'http://loinc.org';

describe(`FHIR API (${testRuntime()})`, () => {
  let platform: TestPlatform;
  let a: Tenant;
  let b: Tenant;
  let u: TestUser;
  let odd: TestUser;
  const day = isoDay(-2);
  const fhir = (t: Tenant, path: string) => t.api.get(`/organizations/${t.organizationId}/fhir/${path}`);
  const expectOutcome = (res: { status: number; headers: Headers; body: any }, status: number, code: string) => {
    expect([res.status, res.headers.get('content-type'), res.body?.resourceType, res.body?.issue?.[0]?.code]).toEqual([status, 'application/fhir+json; charset=utf-8', 'OperationOutcome', code]);
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ mode: testRuntime(), label: 'fhir' });
    a = await createTenant(platform.baseUrl);
    b = await createTenant(platform.baseUrl);
    u = await createUser(platform.baseUrl, a, { timezone: 'Europe/Berlin' });
    odd = await createUser(platform.baseUrl, a, { uid: `dr.who_${newUid()}` });
    const bp = sampleRecord('measurement', day, {
      end_time: `${day}T10:00:00Z`,
      metrics: [
        { type: 'blood_pressure_systolic', unit: 'mmHg', value: 121, origin: 'device' },
        { type: 'blood_pressure_diastolic', unit: 'mmHg', value: 79, origin: 'device' },
        { type: 'heart_rate', unit: 'bpm', value: 64, origin: 'device' },
      ],
      source: { type: 'withings', device: { id: 'bpm-1', model: 'BPM Connect', manufacturer: 'Withings' } },
    });
    const types = ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday', 'cgm'];
    const posted = await u.mobile.post('/mobile/records', { records: [bp, ...types.map((t) => sampleRecord(t, day))] });
    expect(posted.status).toBe(200);
    expect((await odd.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status).toBe(200);
  }, 120_000);

  afterAll(async () => platform?.stop(), 60_000);

  it('answers its CapabilityStatement', async () => {
    const res = await fhir(a, 'metadata');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    expect(res.body).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', kind: 'instance' });
    expect(res.body.rest[0].resource.map((r: { type: string }) => r.type)).toEqual(['Patient', 'Observation', 'Device']);
  });

  it('reads a Patient by its id and finds it by its uid; an odd uid gets a reversible id', async () => {
    const read = await fhir(a, `Patient/${u.uid}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ resourceType: 'Patient', id: u.uid, identifier: [{ value: u.uid }] });
    const found = await fhir(a, `Patient?identifier=${encodeURIComponent(u.uid)}`);
    expect(found.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1, entry: [{ resource: { id: u.uid } }] });
    const oddId = odd.uid.replace('.', '.2E').replace('_', '.5F');
    const oddRead = await fhir(a, `Patient/${oddId}`);
    expect(oddRead.status).toBe(200);
    expect(oddRead.body).toMatchObject({ id: oddId, identifier: [{ value: odd.uid }] });
    expect((await fhir(a, `Patient?identifier=${encodeURIComponent(`${read.body.identifier[0].system}|${odd.uid}`)}`)).body.total).toBe(1);
    expect((await fhir(a, 'Patient?identifier=nobody')).body).toMatchObject({ total: 0 });
  });

  it('reads a Patient whose uid is too long for an id by its hashed id, and its Observations', async () => {
    const long = await createUser(platform.baseUrl, a, { uid: `long_${'x'.repeat(70)}_${newUid()}` });
    expect((await long.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status).toBe(200);
    const found = await fhir(a, `Patient?identifier=${encodeURIComponent(long.uid)}`);
    const id: string = found.body.entry[0].resource.id;
    expect(id).toMatch(/^\.\.[0-9a-f]{48}$/);
    const read = await fhir(a, `Patient/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, identifier: [{ value: long.uid }] });
    const observations = await fhir(a, `Observation?patient=${id}&date=${day}`);
    expect(observations.status).toBe(200);
    expect(observations.body.entry.map((e: any) => e.resource.subject.reference)).toContain(`Patient/${id}`);
    expectOutcome(await fhir(b, `Patient/${id}`), 404, 'not-found');
    expectOutcome(await fhir(a, `Patient/..${'0'.repeat(48)}`), 404, 'not-found');
  });

  it("searches a Patient's Observations by code and category, in local time, with the blood-pressure panel", async () => {
    const all = await fhir(a, `Observation?patient=Patient/${u.uid}&date=ge${day}&date=le${day}&_count=1000`);
    expect(all.status).toBe(200);
    const resources = all.body.entry.map((e: { resource: any }) => e.resource);
    expect(resources.length).toBeGreaterThan(15);
    expect(resources.every((o: any) => o.resourceType === 'Observation' && o.subject.reference === `Patient/${u.uid}`)).toBe(true);
    const bp = resources.find((o: any) => o.code.coding[0].code === '85354-9');
    // 10:00 UTC in Berlin's local time: 11:00+01:00 in winter, 12:00+02:00 in summer.
    expect(bp.effectiveDateTime).toMatch(new RegExp(`^${day}T(11:00:00\\+01:00|12:00:00\\+02:00)$`));
    expect(bp).toMatchObject({ meta: { profile: ['http://hl7.org/fhir/StructureDefinition/bp'] }, component: [{ valueQuantity: { value: 121 } }, { valueQuantity: { value: 79 } }] });
    const hr = await fhir(a, `Observation?patient=${u.uid}&date=${day}&code=${encodeURIComponent(`${LOINC}|8867-4`)}`);
    // The measurement's 64 and the intraday series' samples: heart rates only.
    expect(hr.body.entry.map((e: any) => e.resource.valueQuantity.value)).toContain(64);
    expect(hr.body.entry.every((e: any) => e.resource.code.coding.some((c: any) => c.system === LOINC && c.code === '8867-4'))).toBe(true);
    const cgm = await fhir(a, `Observation?patient=${u.uid}&date=${day}&category=laboratory`);
    expect(cgm.body.entry.length).toBeGreaterThan(0);
    expect(cgm.body.entry.every((e: any) => e.resource.category[0].coding[0].code === 'laboratory')).toBe(true);
    expect((await fhir(a, `Observation?patient=${u.uid}&date=${isoDay(-20)}`)).body.entry).toEqual([]);
  });

  it('pages with _count and next links, every Observation once', async () => {
    const whole = await fhir(a, `Observation?patient=${u.uid}&date=${day}&_count=1000`);
    const ids: string[] = [];
    let res = await fhir(a, `Observation?patient=${u.uid}&date=${day}&_count=4`);
    for (let pages = 0; ; pages++) {
      expect(res.status).toBe(200);
      expect(res.body.entry.length).toBeLessThanOrEqual(4);
      ids.push(...res.body.entry.map((e: any) => e.resource.id));
      const next = res.body.link.find((l: { relation: string }) => l.relation === 'next')?.url as string | undefined;
      if (!next) break;
      expect(pages).toBeLessThan(50);
      res = await new ApiClient(platform.baseUrl, a.token).get(next.slice(next.indexOf('/v2') + 3));
    }
    expect(ids).toEqual(whole.body.entry.map((e: any) => e.resource.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads the Device an Observation names', async () => {
    const hr = await fhir(a, `Observation?patient=${u.uid}&date=${day}&code=8867-4`);
    const ref: string = hr.body.entry[0].resource.device.reference;
    const device = await fhir(a, ref);
    expect(device.status).toBe(200);
    expect(device.body).toMatchObject({ resourceType: 'Device', manufacturer: 'Withings', modelNumber: 'BPM Connect', patient: { reference: `Patient/${u.uid}` } });
    // Another id: its last character changed to another (an id that already ended in 0 once read back 200).
    const id = ref.split('/')[1];
    expectOutcome(await fhir(a, `Device/${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`), 404, 'not-found');
    expectOutcome(await fhir(a, 'Device/nonsense'), 404, 'not-found');
  });

  it("refuses another organization's token and another customer's Patient, as OperationOutcome", async () => {
    expectOutcome(await b.api.get(`/organizations/${a.organizationId}/fhir/Patient/${u.uid}`), 401, 'login');
    expectOutcome(await fhir(b, `Patient/${u.uid}`), 404, 'not-found');
    expectOutcome(await fhir(b, `Observation?patient=${u.uid}`), 404, 'not-found');
  });

  it('answers bad parameters with a 400 OperationOutcome, never a 500', async () => {
    for (const query of ['', 'patient=', `patient=${u.uid}&foo=1`, `patient=${u.uid}&date=yesterday`, `patient=${u.uid}&date=2026-02-30`, `patient=${u.uid}&date=ge2026-01-01&date=le2026-03-01`, `patient=${u.uid}&_count=0`, `patient=${u.uid}&_count=abc`, `patient=${u.uid}&_page=-1`, `patient=${u.uid}&code=`, `patient=${u.uid}&date=le2026-01-01&date=ge2026-01-05`, `patient=${u.uid}&_format=xml`]) {
      expectOutcome(await fhir(a, `Observation?${query}`), 400, 'invalid');
    }
    expectOutcome(await fhir(a, 'Patient?name=x'), 400, 'invalid');
    expectOutcome(await fhir(a, 'Encounter'), 404, 'not-found');
    expectOutcome(await a.api.post(`/organizations/${a.organizationId}/fhir/Patient`, { resourceType: 'Patient' }), 404, 'not-found');
    expectOutcome(await fhir(a, 'Patient/a.41'), 404, 'not-found');
  });

  it("answers the gateway's own 401 and 429 as OperationOutcome", async () => {
    expectOutcome(await new ApiClient(platform.baseUrl).get(`/organizations/${a.organizationId}/fhir/metadata`), 401, 'login');
    const limited = await createTenant(platform.baseUrl, { rateLimitPerHour: 2 });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 3; i++) statuses.push((last = await fhir(limited, 'metadata')).status);
    expect(statuses).toEqual([200, 200, 429]);
    expectOutcome(last!, 429, 'throttled');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('records the reads in the audit log', async () => {
    const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    const entries = await eventually(async () => {
      const res = await admin.get(`/admin/audit_log?customer_id=${a.customerId}&action=fhir.read&limit=100`);
      return res.body.data.length >= 5 ? res.body.data : undefined;
    }, 20_000);
    expect(entries[0]).toMatchObject({ action: 'fhir.read', actor: `customer:${a.customerId}`, organization_id: a.organizationId, service: 'records' });
    expect(new Set(entries.map((e: any) => e.details.resource_type))).toEqual(new Set(['Patient', 'Observation', 'Device']));
  });

  it('finds nothing of a deleted user', async () => {
    const gone = await createUser(platform.baseUrl, a);
    expect((await gone.mobile.post('/mobile/records', { records: [sampleRecord('measurement', day)] })).status).toBe(200);
    expect((await fhir(a, `Observation?patient=${gone.uid}&date=${day}`)).body.entry).toHaveLength(1);
    expect((await a.api.delete(`/organizations/${a.organizationId}/users/${gone.uid}`)).status).toBe(200);
    await eventually(async () => (await fhir(a, `Patient/${gone.uid}`)).status === 404, 10_000);
    expectOutcome(await fhir(a, `Observation?patient=${gone.uid}&date=${day}`), 404, 'not-found');
    expect((await fhir(a, `Patient?identifier=${gone.uid}`)).body.total).toBe(0);
  });

  if (testRuntime() === 'embedded') {
    it('serves resources the HL7 validator accepts (zero errors)', async () => {
      const validator = await FhirValidator.start();
      try {
        const search = await fhir(a, `Observation?patient=${u.uid}&date=${day}&_count=1000`);
        const device = await fhir(a, search.body.entry[0].resource.device.reference);
        const failures: string[] = [];
        for (const r of [search.body, (await fhir(a, `Patient/${u.uid}`)).body, device.body, (await fhir(a, 'metadata')).body]) {
          const errors = await validator.errors(r);
          if (errors.length) failures.push(`${r.resourceType}: ${formatFhirMessages(errors)}`);
        }
        expect(failures).toEqual([]);
      } finally {
        await validator.stop();
      }
    }, 300_000);
  }
});
