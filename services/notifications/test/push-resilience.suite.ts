/**
 * Delivery that survives a restart of the platform in the middle of a retry schedule (resumes,
 * never sends a successful batch again), and the order of an organization's batches (first tries
 * in formation order; a failing batch does not hold back the next).
 */
import { ApiClient, createTenant, distributedEnv, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { batchDetail, dataEvent, orgPath, publishData, sleep, waitForBatches } from './push-fixtures';
import { PushReceiver, startPushReceiver } from './push-receiver';

export function pushResilienceSuite(mode: 'embedded' | 'distributed'): void {
  describe(`push delivery across a restart (${mode})`, () => {
    let platform: TestPlatform | undefined;
    let receiver: PushReceiver;
    afterAll(async () => {
      await receiver?.close();
      await platform?.stop();
    });

    it('resumes a pending retry after the restart and sends the batch exactly until it succeeds', async () => {
      // Long enough retry delays that the second try cannot happen before the stop: seeing the
      // first try on the list and stopping (the gateway and the other services stop first, each
      // leaving its Kafka groups in the distributed run) take seconds on a loaded machine.
      const env: NodeJS.ProcessEnv = {
        WELLSTREAM_PUSH_RETRY_DELAYS_MS: '6000,6000',
        ...(mode === 'distributed' ? distributedEnv('pushrestart') : {}),
      };
      platform = await startTestPlatform({ mode, env });
      const tenant: Tenant = await createTenant(platform.baseUrl);
      receiver = await startPushReceiver({ script: [500] });
      await tenant.api.put(`${orgPath(tenant.organizationId)}/notification_target`, { url: receiver.url, secret: 'restart-secret' });
      await publishData(platform.eventLog, [dataEvent(tenant), dataEvent(tenant)]);
      const [first] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].attempts.count === 1);
      expect(first.status).toBe('FAILURE');
      expect(first.next_attempt_at).toEqual(expect.any(String));

      const dataDir = platform.dataDir;
      await platform.stop();
      platform = undefined;
      const stoppedAt = Date.now();
      platform = await startTestPlatform({ mode, env, dataDir });
      const api = new ApiClient(platform.baseUrl, tenant.token);

      const [done] = await waitForBatches(api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS', 30_000);
      expect(done).toMatchObject({ id: first.id, attempts: { count: 2 }, next_attempt_at: null });
      const detail = await batchDetail(api, tenant.organizationId, first.id);
      expect(detail.attempts.details.map((a: any) => a.response.code)).toEqual([500, 200]);
      expect(Date.parse(detail.attempts.details[1].transmitted_at)).toBeGreaterThanOrEqual(stoppedAt);
      expect(detail.items).toHaveLength(2);
      await sleep(1500);
      expect(receiver.received.map((r) => r.body.id)).toEqual([first.id, first.id]);
    });
  });

  describe(`push ordering (${mode})`, () => {
    let platform: TestPlatform;
    let receiver: PushReceiver;
    beforeAll(async () => {
      platform = await startTestPlatform({
        mode,
        label: 'pushorder',
        // The test needs b2's first try before b1's retry and each pair of records in one batch: both
        // come down to collecting and forming a few records on the store, which takes well under a
        // second but more than a few hundred ms on a loaded machine, so the retry delay and the flush
        // time are seconds long (the flush only delays the last, single-record batch).
        env: { WELLSTREAM_PUSH_BATCH_SIZE: '2', WELLSTREAM_PUSH_FLUSH_MS: '2000', WELLSTREAM_PUSH_RETRY_DELAYS_MS: '3000,3000' },
      });
    });
    afterAll(async () => {
      await receiver?.close();
      await platform?.stop();
    });

    it('first-attempts batches in the order they were formed, and a failing one does not hold back the next', async () => {
      const tenant = await createTenant(platform.baseUrl);
      // The first request fails; everything after succeeds.
      receiver = await startPushReceiver({ script: [500] });
      await tenant.api.put(`${orgPath(tenant.organizationId)}/notification_target`, { url: receiver.url });
      const events = await publishData(platform.eventLog, [dataEvent(tenant), dataEvent(tenant), dataEvent(tenant), dataEvent(tenant), dataEvent(tenant)]);
      const batches = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 3 && b.every((x) => x.status === 'SUCCESS'), 30_000);

      // Records keep their order across batches (one user: one partition), two per batch.
      const pushedItems = receiver.received.filter((r, i, all) => all.findIndex((o) => o.body.id === r.body.id) === i).flatMap((r) => r.body.items.map((x) => x.id));
      expect(pushedItems).toEqual(events.map((e) => e.key));
      const order = receiver.received.map((r) => r.body.id);
      const [b1, b2, b3] = [...new Set(order)];
      expect(receiver.received.find((r) => r.body.id === b1)!.body.items).toHaveLength(2);
      expect(receiver.received.find((r) => r.body.id === b3)!.body.items).toHaveLength(1);
      // b1 failed first, b2 went out before b1's retry, b1 succeeded later.
      expect(order.indexOf(b1)).toBe(0);
      expect(order.indexOf(b2)).toBeLessThan(order.lastIndexOf(b1));
      const byId = new Map(batches.map((b) => [b.id, b]));
      expect(byId.get(b1)!.attempts.count).toBe(2);
      expect(byId.get(b2)!.attempts.count).toBe(1);
      expect(Date.parse(byId.get(b2)!.attempts.first_at)).toBeLessThan(Date.parse(byId.get(b1)!.attempts.last_at));
      // Newest first in the list.
      expect(batches.map((b) => b.id)).toEqual([b3, b2, b1]);
    });
  });
}
