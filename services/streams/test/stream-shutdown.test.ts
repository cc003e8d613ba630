/**
 * Shutdown ends open event streams (they are registered as long-lived responses) instead of
 * waiting for clients to leave.
 */
import { createTenant } from '@wellstream/testing';
import { startTestPlatform } from '@wellstream/platform/testing';
import { connectReplay, connectStream } from './stream-fixtures';

it('ends open stream and replay connections when the streams service stops', async () => {
  const platform = await startTestPlatform();
  try {
    const tenant = await createTenant(platform.baseUrl);
    const stream = (await tenant.api.post('/streams', { name: 's' })).body;
    const c = await connectStream(platform.baseUrl, tenant, stream.id);
    const r = await connectReplay(platform.baseUrl, tenant);
    const started = Date.now();
    // (The gateway in front passes the end on to the client.)
    await platform.services.find((s) => s.name === 'streams')!.stop();
    await Promise.all([c.closed, r.closed]);
    expect(Date.now() - started).toBeLessThan(2000);
  } finally {
    await platform.stop();
  }
});
