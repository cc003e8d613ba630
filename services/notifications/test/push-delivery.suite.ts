/**
 * Delivery of batches to a real local receiver and the status endpoints that report it: signed
 * success, retries until success, final failure, no response (refused, timeout), resource filter,
 * list filters and their 400s, detail, 404s and redelivery.
 */
import { ApiClient, createTenant, eventually, Tenant, TEST_ADMIN_TOKEN } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { verifyPush } from '../src/delivery/push-signature';
import { batchDetail, dataEvent, orgPath, publishData, sleep, waitForBatches } from './push-fixtures';
import { closedPort, PushReceiver, startPushReceiver } from './push-receiver';

const final = (b: any) => b.next_attempt_at === null;

export function pushDeliverySuite(mode: 'embedded' | 'distributed'): void {
  describe(`push delivery (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    const receivers: PushReceiver[] = [];
    const receiver = async (options?: Parameters<typeof startPushReceiver>[0]) => {
      const r = await startPushReceiver(options);
      receivers.push(r);
      return r;
    };
    const configure = (url: string, extra: Record<string, unknown> = {}) =>
      tenant.api.put(`${orgPath(tenant.organizationId)}/notification_target`, { url, ...extra });
    const notifications = (query = '') => tenant.api.get(`${orgPath(tenant.organizationId)}/notifications${query}`);

    beforeAll(async () => {
      // Retries 200,400 ms (3 tries) come from the test platform. The timeout is short enough to
      // keep the timeout case quick but far above a loaded machine's answer time: the receiver
      // shares this process's event loop with the platform, and a 400 ms timeout could turn an
      // ordinary 200 into a "timeout" attempt while CI ran other suites beside this one.
      platform = await startTestPlatform({ mode, label: 'pushdelivery', env: { WELLSTREAM_PUSH_TIMEOUT_MS: '3000' } });
    });
    afterAll(async () => {
      for (const r of receivers) await r.close();
      await platform?.stop();
    });
    beforeEach(async () => {
      tenant = await createTenant(platform.baseUrl);
    });

    it('gathers new records into one signed batch and reports SUCCESS with the attempt', async () => {
      const r = await receiver();
      expect((await configure(r.url, { secret: 'topsecret' })).status).toBe(200);
      const events = await publishData(platform.eventLog, [dataEvent(tenant), dataEvent(tenant, { resource: 'sleep' }), dataEvent(tenant, { userId: 'user-2' })]);
      // Not this organization's, not a data event: never pushed here.
      const other = await createTenant(platform.baseUrl);
      await publishData(platform.eventLog, [dataEvent(other), dataEvent(tenant, { eventType: 'connection' })]);

      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS');
      expect(batch).toMatchObject({ status: 'SUCCESS', next_attempt_at: null, item_count: 3, attempts: { count: 1 } });
      expect(batch.attempts.first_at).toBe(batch.attempts.last_at);

      expect(r.received).toHaveLength(1);
      const push = r.received[0];
      expect(push.headers['content-type']).toMatch(/^application\/json/);
      expect(push.headers['x-wellstream-batch-id']).toBe(batch.id);
      const ts = Number(push.headers['x-wellstream-timestamp']);
      expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(30);
      expect(push.headers['x-wellstream-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verifyPush('topsecret', { timestamp: String(ts), signature: push.headers['x-wellstream-signature'] as string }, push.rawBody)).toBe(true);
      expect(verifyPush('wrong', { timestamp: String(ts), signature: push.headers['x-wellstream-signature'] as string }, push.rawBody)).toBe(false);
      expect(push.body.id).toBe(batch.id);
      expect(push.body.items.map((i) => i.id).sort()).toEqual(events.map((e) => e.key).sort());
      expect(push.body.items[0]).toMatchObject({ type: expect.any(String), user: { organization_id: tenant.organizationId }, metrics: expect.any(Array) });

      const detail = await batchDetail(tenant.api, tenant.organizationId, batch.id);
      expect(detail).toMatchObject({ id: batch.id, status: 'SUCCESS', attempts: { start_at: batch.attempts.first_at, last_at: batch.attempts.last_at } });
      expect(detail.attempts.details).toEqual([{ transmitted_at: batch.attempts.first_at, response: { code: 200, body: 'ok' } }]);
      expect(detail.items).toEqual(push.body.items);
    });

    it('pushes a record ingested through the platform (users → records → push), end to end', async () => {
      const r = await receiver();
      await configure(r.url, { secret: 'e2e-secret' });
      const uid = `push-e2e-${Date.now().toString(36)}`;
      const created = await tenant.api.post(`${orgPath(tenant.organizationId)}/users`, { uid, location: { timezone: 'UTC', country_code: null } });
      expect(created.status).toBe(201);
      const user = await tenant.api.get(`${orgPath(tenant.organizationId)}/users/${uid}`);
      const mobile = new ApiClient(platform.baseUrl, user.body.mobile.token);
      // Records learns the mobile token from the users topic.
      await eventually(async () => (await mobile.post('/mobile/records', {})).status !== 401, 15_000);
      const day = new Date().toISOString().slice(0, 10);
      const posted = await mobile.post('/mobile/records', {
        records: [{ type: 'measurement', source: { type: 'apple_health' }, log_id: `w-${uid}`, start_time: `${day}T06:00:00Z`, end_time: `${day}T06:00:00Z`, metrics: [{ type: 'body_weight', unit: 'kg', value: 71.5, origin: 'device' }] }],
      });
      expect(posted.status).toBe(200);
      const recordId = posted.body.data[0].id;
      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS', 15_000);
      const push = r.received.find((p) => p.body.id === batch.id)!;
      expect(push.body.items).toEqual([expect.objectContaining({ id: recordId, type: 'measurement', user: expect.objectContaining({ uid }) })]);
      expect(verifyPush('e2e-secret', { timestamp: push.headers['x-wellstream-timestamp'] as string, signature: push.headers['x-wellstream-signature'] as string }, push.rawBody)).toBe(true);
    });

    it('sends no signature without a secret and honours the resource filter', async () => {
      const r = await receiver();
      await configure(r.url, { resource_filter: ['sleep'] });
      const [, wanted] = await publishData(platform.eventLog, [dataEvent(tenant, { resource: 'measurement' }), dataEvent(tenant, { resource: 'sleep' })]);
      await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS');
      expect(r.received).toHaveLength(1);
      expect(r.received[0].headers['x-wellstream-signature']).toBeUndefined();
      expect(r.received[0].body.items.map((i) => i.id)).toEqual([wanted.key]);
    });

    it('retries after a 500 and records every attempt until SUCCESS', async () => {
      const r = await receiver({ script: [500, 503] });
      await configure(r.url);
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS');
      expect(batch.attempts.count).toBe(3);
      const detail = await batchDetail(tenant.api, tenant.organizationId, batch.id);
      expect(detail.attempts.details.map((a: any) => a.response.code)).toEqual([500, 503, 200]);
      expect(detail.attempts.details[0].response.body).toBe('receiver says 500');
      const times = detail.attempts.details.map((a: any) => Date.parse(a.transmitted_at));
      // Retry delays 200 then 400 ms, with ±10 % jitter.
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(170);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(350);
      expect(new Set(r.received.map((p) => p.headers['x-wellstream-batch-id']))).toEqual(new Set([batch.id]));
      await sleep(500);
      expect(r.received).toHaveLength(3);
    });

    it('ends as FAILURE after the configured tries when the receiver always fails', async () => {
      const r = await receiver({ fallback: 500 });
      await configure(r.url);
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      // Every state seen on the way: the window between two tries is only the retry delay (200 or
      // 400 ms), which a poll on a slow store can miss, so the test does not wait for one of them.
      const seen: any[] = [];
      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => {
        if (b.length === 1 && b[0].attempts.count >= 1) seen.push(b[0]);
        return b.length === 1 && final(b[0]);
      });
      // Not yet successful, retries remain: FAILURE with the next try announced.
      for (const between of seen.filter((x) => !final(x))) {
        expect(between).toMatchObject({ status: 'FAILURE', next_attempt_at: expect.any(String) });
        expect(between.attempts.count).toBeLessThan(3);
      }
      expect(batch).toMatchObject({ status: 'FAILURE', attempts: { count: 3 } });
      await sleep(600);
      expect(r.received).toHaveLength(3);
      expect((await batchDetail(tenant.api, tenant.organizationId, batch.id)).attempts.details.map((a: any) => a.response.code)).toEqual([500, 500, 500]);
    });

    it('records code 0 when the connection is refused', async () => {
      await configure(`http://127.0.0.1:${await closedPort()}/hook`);
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && final(b[0]));
      expect(batch.status).toBe('FAILURE');
      const detail = await batchDetail(tenant.api, tenant.organizationId, batch.id);
      expect(detail.attempts.details).toHaveLength(3);
      for (const a of detail.attempts.details) expect(a.response).toEqual({ code: 0, body: 'connection refused' });
    });

    it('records code 0 when the receiver does not answer in time', async () => {
      const r = await receiver({ script: ['hang'] });
      await configure(r.url);
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS');
      const detail = await batchDetail(tenant.api, tenant.organizationId, batch.id);
      expect(detail.attempts.details.map((a: any) => a.response.code)).toEqual([0, 200]);
      expect(detail.attempts.details[0].response.body).toMatch(/timeout/);
    });

    it('filters the list by status and time and pages it, newest first', async () => {
      const ok = await receiver();
      await configure(ok.url);
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && final(b[0]));
      const failing = await receiver({ fallback: 500 });
      await configure(failing.url);
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      const both = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 2 && b.every(final));
      expect(both.map((b) => b.status)).toEqual(['FAILURE', 'SUCCESS']);
      const [failed, succeeded] = both;

      expect((await notifications('?status=success')).body.data.map((b: any) => b.id)).toEqual([succeeded.id]);
      expect((await notifications('?status=FAILURE')).body.data.map((b: any) => b.id)).toEqual([failed.id]);
      const paged = await notifications('?limit=1&offset=1');
      expect(paged.body).toMatchObject({ data: [{ id: succeeded.id }], meta: { offset: 1, limit: 1, total: 2 } });

      const sec = (iso: string) => iso.slice(0, 19) + 'Z';
      const within = await notifications(`?start_time=${sec(succeeded.attempts.first_at)}&end_time=${sec(succeeded.attempts.first_at)}`);
      expect(within.body.data.map((b: any) => b.id)).toContain(succeeded.id);
      expect((await notifications('?end_time=2000-01-01T00:00:00Z')).body.data).toEqual([]);
      expect((await notifications('?start_time=2999-01-01T00:00:00Z')).body).toMatchObject({ data: [], meta: { total: 0 } });
    });

    it.each([
      ['?start_time=2024-05-01', 'start_time'],
      ['?end_time=yesterday', 'end_time'],
      ['?start_time=2024-02-30T00:00:00Z', 'start_time'],
      ['?start_time=2024-05-01T00:00:00%2B02:00', 'start_time'],
      ['?status=pending', 'status'],
      ['?limit=0', 'limit'],
      ['?offset=-1', 'offset'],
      ['?start_time=2024-05-02T00:00:00Z&end_time=2024-05-01T00:00:00Z', 'end_time'],
    ])('answers 400 {"errors":{field:[…]}} to %s', async (query, field) => {
      const res = await notifications(query);
      expect(res.status).toBe(400);
      expect(res.body.errors[field]).toEqual(expect.any(Array));
    });

    it('answers 404 for an unknown batch and for another organization’s batch', async () => {
      const r = await receiver();
      await configure(r.url);
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && final(b[0]));
      const unknown = await tenant.api.get(`${orgPath(tenant.organizationId)}/notifications/no-such-batch`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors).toEqual([expect.any(String)]);
      // A second organization of the same customer: the token may access it, the batch is not there.
      const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
      const org2 = await admin.post(`/admin/customers/${tenant.customerId}/organizations`, { name: 'Second org' });
      expect(org2.status).toBe(201);
      const cross = await tenant.api.get(`${orgPath(org2.body.id)}/notifications/${batch.id}`);
      expect(cross.status).toBe(404);
      expect((await tenant.api.get(`${orgPath(org2.body.id)}/notifications`)).body.data).toEqual([]);
      expect((await tenant.api.post(`${orgPath(org2.body.id)}/notifications/${batch.id}/redeliver`)).status).toBe(404);
    });

    it('redelivers a batch on request: a new round, recorded after the earlier attempts', async () => {
      const r = await receiver();
      await configure(r.url, { secret: 'k' });
      await publishData(platform.eventLog, [dataEvent(tenant)]);
      const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS');
      const res = await tenant.api.post(`${orgPath(tenant.organizationId)}/notifications/${batch.id}/redeliver`);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id: batch.id, next_attempt_at: expect.any(String) });
      const [again] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b[0].attempts.count === 2 && b[0].status === 'SUCCESS');
      expect(again.next_attempt_at).toBeNull();
      expect(r.received.map((p) => p.body.id)).toEqual([batch.id, batch.id]);
      expect(r.received[1].rawBody).toBe(r.received[0].rawBody);
      expect((await tenant.api.post(`${orgPath(tenant.organizationId)}/notifications/nope/redeliver`)).status).toBe(404);
    });
  });
}
