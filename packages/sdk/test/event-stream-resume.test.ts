/**
 * stream.connect() across a platform restart: the iterator notices the drop, reconnects with
 * backoff and Last-Event-ID once the platform is back on the same port and data, and nothing
 * acknowledged before or after the restart is missing.
 */
import { freePort } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import type { DataEvent } from '../src';
import { postMeasurements, sdkTenant } from './sdk-fixtures';

jest.setTimeout(120_000);

it('resumes a stream across a platform restart with nothing lost', async () => {
  const port = await freePort();
  const env = { WELLSTREAM_PORT: String(port), WELLSTREAM_POKE_INTERVAL_MS: '1000' };
  let platform: TestPlatform = await startTestPlatform({ env });
  const t = await sdkTenant(platform.baseUrl);
  try {
    const user = await t.client.users.create(t.orgId, { uid: 'resume-1' });
    const mobile = (await t.client.users.get(t.orgId, user.uid)).mobile.token;
    const stream = await t.client.streams.create({ name: 'resume' });
    const reconnects: string[] = [];
    const events = t.client.streams.connect(stream.id, { reconnect: { baseDelayMs: 100, maxDelayMs: 500 }, onReconnect: (r) => reconnects.push(r.reason) });
    const seen = new Map<string, number>();
    const collect = (async () => {
      for await (const e of events) {
        if (e.type !== 'data') continue;
        const log = (e as DataEvent).data.log_id;
        seen.set(log, (seen.get(log) ?? 0) + 1);
        if (seen.size === 60) break;
      }
    })();
    const before = await postMeasurements(t.client, mobile, 30, 'before', 10);
    await waitUntil(() => before.every((id) => seen.has(id)));
    await platform.stop();
    platform = await startTestPlatform({ env, dataDir: platform.dataDir });
    const after = await postMeasurements(t.client, mobile, 30, 'after', 10);
    await collect;
    expect([...before, ...after].filter((id) => !seen.has(id))).toEqual([]);
    expect(reconnects.length).toBeGreaterThan(0);
    expect(events.lastEventId).toMatch(/^\d+-\d+$/);
  } finally {
    await platform.stop();
  }
});

async function waitUntil(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
