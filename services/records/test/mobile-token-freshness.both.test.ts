/**
 * Read-your-writes for mobile tokens, decided by log position (libs/bus read-your-writes.ts): a user
 * created a moment ago is accepted on its very first post, every time, and a made-up token that
 * looks well-formed is refused at once while the platform is caught up (no wait, by the records
 * service's own count on /metrics, and fast by the clock). Runs embedded
 * and on the real servers.
 *
 * On the real servers a round (create, get, post) takes about half a second on this 2-core machine
 * (FerretDB), so that run makes 200 rounds by default and compares the refusal's time with an
 * accepted post's (both cross the same servers); WELLSTREAM_TEST_FRESH_TOKEN_TRIES sets the rounds.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient, createTenant, eventually, Tenant, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { isoDay, newUid, sampleRecord } from './records-fixtures';

const CONCURRENCY = 4;
const GROUP = 'records.user-projection';

function mobileTokenFreshnessSuite(mode: 'embedded' | 'distributed') {
  const TRIES = Number(process.env.WELLSTREAM_TEST_FRESH_TOKEN_TRIES ?? (mode === 'embedded' ? 1000 : 200));
  const PROBES = mode === 'embedded' ? 200 : 100;
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

    const p99 = (ms: number[]) => [...ms].sort((x, y) => x - y)[Math.ceil(ms.length * 0.99) - 1];
    const timedPost = async (token: string) => {
      const started = performance.now();
      const res = await new ApiClient(platform.baseUrl, token).post('/mobile/records', { records: [sampleRecord('measurement', day)] });
      return { res, ms: performance.now() - started };
    };

    it(`refuses a made-up well-formed token with 401 without waiting while the platform is caught up (${mode === 'embedded' ? 'p99 <= 100 ms' : 'p99 within 100 ms of an accepted post'})`, async () => {
      // Caught up first: the posts above made records report sources, which the sources service
      // connects and the users service copies, announcing user changes for a while after (the
      // projection is then rightly behind).
      const level = async (group: string, topic: string) => (await platform.eventLog.groupPositions(group, topic)).every((p) => p.handled >= p.end);
      await eventually(
        async () => (await level('sources.source-detections', 'source-detections')) && (await level('users.source-connections', 'source-connections')) && (await level(GROUP, 'users')),
        60_000,
      );
      const before = await outcomes();
      const refused: number[] = [];
      for (let i = 0; i < PROBES; i++) {
        const { res, ms } = await timedPost(`mob_${randomBytes(32).toString('base64url')}`);
        refused.push(ms);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
      const after = await outcomes();
      // Every one was decided by the positions alone: the projection was level with the log.
      const moved = Object.fromEntries(['level', 'caught-up', 'gave-up', 'unknown'].map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]));
      expect(moved).toEqual({ level: PROBES, 'caught-up': 0, 'gave-up': 0, unknown: 0 });
      if (mode === 'embedded') {
        expect(p99(refused)).toBeLessThanOrEqual(100);
        return;
      }
      // On the real servers every request is slower; refusing may cost one positions read more than accepting.
      const uid = newUid();
      await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid });
      const token = (await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`)).body.mobile.token;
      const accepted: number[] = [];
      for (let i = 0; i < PROBES; i++) accepted.push((await timedPost(token)).ms);
      process.stdout.write(`[fresh tokens] p99 refused ${p99(refused).toFixed(0)} ms, accepted ${p99(accepted).toFixed(0)} ms\n`);
      expect(p99(refused)).toBeLessThanOrEqual(p99(accepted) + 100);
    }, 300_000);
  });
}

mobileTokenFreshnessSuite(testRuntime());
