/**
 * The embedded runtime keeps its data across restarts: the document stores and the event log
 * live under WELLSTREAM_DATA_DIR.
 */
import { ApiClient, createTenant, TEST_ADMIN_TOKEN } from '@wellstream/testing';
import { startTestPlatform } from '@wellstream/platform/testing';
import { organizationEventsTopic } from '@wellstream/contracts';

it('serves the same customers, tokens and events after a stop and a start on the same data dir', async () => {
  const first = await startTestPlatform();
  const tenant = await createTenant(first.baseUrl);
  await first.stop();

  const second = await startTestPlatform({ dataDir: first.dataDir });
  try {
    // The token (stored hashed in the gateway's store) still authenticates and authorizes.
    const res = await new ApiClient(second.baseUrl, tenant.token).get(`/organizations/${tenant.organizationId}/users`);
    expect(res.status).not.toBe(401);
    // The organization event written before the restart is still in the event log.
    const seen: string[] = [];
    const sub = await second.eventLog.tail({
      topic: organizationEventsTopic.spec.name,
      handle: async (m) => {
        seen.push(JSON.parse(m.value).organization.id);
      },
    });
    await new Promise((r) => setTimeout(r, 300));
    await sub.stop();
    expect(seen).toContain(tenant.organizationId);
    // And the operator API keeps working on the reopened stores.
    const c = await new ApiClient(second.baseUrl, TEST_ADMIN_TOKEN).post('/admin/customers', { name: 'after restart' });
    expect(c.status).toBe(201);
  } finally {
    await second.stop();
  }
});
