/**
 * Notification target configuration: PUT/GET/DELETE, validation, the address policy, and the
 * secret staying write-only (never in an answer, never in a log line).
 */
import { captureLogs, setLogLevel } from '@wellstream/logging';
import { ApiClient, createTenant, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { verifyPush } from '../src/delivery/push-signature';
import { batchDetail, dataEvent, orgPath, publishData, waitForBatches } from './push-fixtures';
import { PushReceiver, startPushReceiver } from './push-receiver';

export function pushTargetsSuite(mode: 'embedded' | 'distributed'): void {
  describe(`notification target (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    let receiver: PushReceiver;
    const target = () => `${orgPath(tenant.organizationId)}/notification_target`;

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'pushtargets' });
      receiver = await startPushReceiver();
    });
    afterAll(async () => {
      await receiver?.close();
      await platform?.stop();
    });
    beforeEach(async () => {
      tenant = await createTenant(platform.baseUrl);
    });

    it('GET without a target answers 404 {"errors":[…]}', async () => {
      const res = await tenant.api.get(target());
      expect(res.status).toBe(404);
      expect(Array.isArray(res.body.errors)).toBe(true);
    });

    it('PUT stores the target; GET shows has_secret but never the secret; DELETE removes it', async () => {
      const secret = 'whsec-very-secret-value-123';
      const put = await tenant.api.put(target(), { url: receiver.url, secret, resource_filter: ['sleep'] });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ url: receiver.url, has_secret: true, resource_filter: ['sleep'] });
      expect(put.text).not.toContain(secret);
      const get = await tenant.api.get(target());
      expect(get.status).toBe(200);
      expect(get.body).toEqual(put.body);
      expect(get.text).not.toContain(secret);

      const replaced = await tenant.api.put(target(), { url: receiver.url });
      expect(replaced.body).toMatchObject({ has_secret: false, resource_filter: [], created_at: put.body.created_at });

      const del = await tenant.api.delete(target());
      expect(del.status).toBe(200);
      expect(del.body.url).toBe(receiver.url);
      expect((await tenant.api.get(target())).status).toBe(404);
      expect((await tenant.api.delete(target())).status).toBe(404);
    });

    it.each([
      [{}, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://127.0.0.1/x' }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1/x' }, 'url'],
      [{ url: 'http://127.0.0.1/x', secret: '' }, 'secret'],
      [{ url: 'http://127.0.0.1/x', resource_filter: ['steps'] }, 'resource_filter[0]'],
      [{ url: 'http://127.0.0.1/x', resource_filter: 'sleep' }, 'resource_filter'],
    ])('rejects %j with 422 keyed by %s', async (body, field) => {
      const res = await tenant.api.put(target(), body);
      expect(res.status).toBe(422);
      expect(res.body.errors[field]).toEqual(expect.any(Array));
      expect((await tenant.api.get(target())).status).toBe(404);
    });

    it('rejects a body that is not an object with 400', async () => {
      const res = await tenant.api.request('PUT', target(), undefined, { rawBody: '[1,2]' });
      expect(res.status).toBe(400);
      const malformed = await tenant.api.request('PUT', target(), undefined, { rawBody: '{"url":' });
      expect(malformed.status).toBe(400);
    });

    it.each(['http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/hook', 'http://0.0.0.0:8080/', 'http://metadata.google.internal/'])(
      'refuses link-local / metadata target %s always (422 on url)',
      async (url) => {
        const res = await tenant.api.put(target(), { url });
        expect(res.status).toBe(422);
        expect(res.body.errors.url[0]).toMatch(/link-local|metadata|reserved/);
      },
    );

    it('another customer cannot read or change the target', async () => {
      await tenant.api.put(target(), { url: receiver.url, secret: 'abc' });
      const other = await createTenant(platform.baseUrl);
      expect((await other.api.get(target())).status).toBe(401);
      expect((await other.api.put(target(), { url: receiver.url })).status).toBe(401);
    });

    it('the secret appears in no answer and no log line, while deliveries are signed with it', async () => {
      const secret = `s3cr3t-${Date.now()}-never-log-me`;
      const lines: string[] = [];
      setLogLevel('debug');
      const stopCapture = captureLogs((l) => lines.push(l));
      try {
        const answers: string[] = [];
        answers.push((await tenant.api.put(target(), { url: receiver.url, secret })).text);
        answers.push((await tenant.api.get(target())).text);
        const [event] = await publishData(platform.eventLog, [dataEvent(tenant)]);
        const [batch] = await waitForBatches(tenant.api, tenant.organizationId, (b) => b.length === 1 && b[0].status === 'SUCCESS');
        answers.push((await tenant.api.get(`${orgPath(tenant.organizationId)}/notifications`)).text);
        answers.push(JSON.stringify(await batchDetail(tenant.api, tenant.organizationId, batch.id)));
        answers.push((await tenant.api.delete(target())).text);
        answers.push((await new ApiClient(platform.baseUrl).get('/openapi.json')).text);
        for (const a of answers) expect(a).not.toContain(secret);
        const push = receiver.received.find((r) => r.body.id === batch.id)!;
        expect(push.body.items.map((i) => i.id)).toEqual([event.key]);
        expect(verifyPush(secret, { timestamp: push.headers['x-wellstream-timestamp'] as string, signature: push.headers['x-wellstream-signature'] as string }, push.rawBody)).toBe(true);
      } finally {
        stopCapture();
        setLogLevel('silent');
      }
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(l).not.toContain(secret);
    });
  });

  describe(`notification target address policy without private targets (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'pushprivate', env: { WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: 'false' } });
      tenant = await createTenant(platform.baseUrl);
    });
    afterAll(async () => platform?.stop());

    it.each(['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://10.1.2.3/hook', 'http://192.168.1.10/hook', 'http://[::1]:9/hook', 'http://[::ffff:127.0.0.1]/'])(
      'refuses private or loopback target %s with 422',
      async (url) => {
        const res = await tenant.api.put(`${orgPath(tenant.organizationId)}/notification_target`, { url });
        expect(res.status).toBe(422);
        expect(res.body.errors.url[0]).toMatch(/private|loopback/);
      },
    );
  });
}
