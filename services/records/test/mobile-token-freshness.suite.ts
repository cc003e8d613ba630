/**
 * Read-your-writes for mobile tokens, decided by log position (libs/bus read-your-writes.ts): a user
 * created a moment ago is accepted on its very first post, every time, and a made-up token that
 * looks well-formed is refused at once while the platform is caught up (no wait, by the records
 * service's own count on /metrics, and fast by the clock). Runs embedded
 * (mobile-token-freshness.test.ts) and on the real servers (mobile-token-freshness.int.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { ApiClient, createTenant, Tenant, TestPlatform, startTestPlatform } from '@wellstream/testing';
import { isoDay, newUid, sampleRecord } from './records-fixtures';

/** How many create-then-post rounds (WELLSTREAM_TEST_FRESH_TOKEN_TRIES, default 1,000). */
const TRIES = Number(process.env.WELLSTREAM_TEST_FRESH_TOKEN_TRIES ?? 1000);
const CONCURRENCY = 4;
const GROUP = 'records.user-projection';

export function mobileTokenFreshnessSuite(mode: 'embedded' | 'distributed') {
  describe(`mobile tokens read their own writes (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    const day = isoDay(-1);

    /** How the records service decided the lookups that missed, from its own /metrics. */
    const outcomes = async (): Promise<Record<string, number>> => {
      const records = platform.services.find((s) => s.name === 'records')!;
      const text = await (await fetch(`${records.url}/metrics`)).text();
      const out: Record<string, number> = {};
      for (const m of text.matchAll(/^read_your_writes_lookups\{([^}]*)\} (\d+)/gm)) {
        if (!m[1].includes(`group="${GROUP}"`)) continue;
        out[/outcome="([^"]+)"/.exec(m[1])![1]] = Number(m[2]);
      }
      return out;
    };

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'records-fresh' });
      tenant = await createTenant(platform.baseUrl, { rateLimitPerHour: 1_000_000 });
    }, 120_000);
    afterAll(async () => {
      await platform?.stop();
    }, 60_000);

    it(`accepts the first post of a user created a moment before, ${TRIES} times in a row`, async () => {
      const refused: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < TRIES) {
          next++;
          const uid = newUid();
          const created = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid });
          expect(created.status).toBe(201);
          const got = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`);
          const res = await new ApiClient(platform.baseUrl, got.body.mobile.token).post('/mobile/records', { records: [sampleRecord('measurement', day)] });
          if (res.status !== 200) refused.push(`${uid}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(refused).toEqual([]);
    }, 600_000);

    it('refuses a made-up well-formed token with 401 without waiting while the platform is caught up (p99 <= 100 ms)', async () => {
      const before = await outcomes();
      const took: number[] = [];
      const tries = 200;
      for (let i = 0; i < tries; i++) {
        const token = `mob_${randomBytes(32).toString('base64url')}`;
        const started = performance.now();
        const res = await new ApiClient(platform.baseUrl, token).post('/mobile/records', { records: [sampleRecord('measurement', day)] });
        took.push(performance.now() - started);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
      const after = await outcomes();
      // Every one was decided by the positions alone: the projection was level with the log.
      expect((after.level ?? 0) - (before.level ?? 0)).toBe(tries);
      expect([after['caught-up'] ?? 0, after['gave-up'] ?? 0, after.unknown ?? 0]).toEqual([before['caught-up'] ?? 0, before['gave-up'] ?? 0, before.unknown ?? 0]);
      took.sort((x, y) => x - y);
      expect(took[Math.ceil(tries * 0.99) - 1]).toBeLessThanOrEqual(100);
    }, 120_000);
  });
}
