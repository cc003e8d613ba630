/**
 * What the sync tests share: a platform started in-process, a user with a mobile token, a stream
 * recording every event, and a network between the SDK and the platform that can go offline,
 * answer 429/503 of its own, or lose the answer after the platform stored the batch (the app
 * killed between send and acknowledgement).
 */
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { ApiClient, connectSse, createTenant, SseConnection, Tenant } from '@wellstream/testing';
import type { FetchLike } from '../src';

export interface Network {
  fetch: FetchLike;
  offline: boolean;
  /** Answers to give instead of forwarding, first in first out. */
  injected: { status: number; retryAfter?: string; body?: string }[];
  /** Forward the next POST, then never answer: the app died before reading the answer. */
  killAfterSend: boolean;
  /** Requests forwarded to the platform (records posts only). */
  recordPosts: number;
  /** Every request the SDK made, injected ones included. */
  requests: number;
}

export function network(): Network {
  const net: Network = {
    offline: false,
    injected: [],
    killAfterSend: false,
    recordPosts: 0,
    requests: 0,
    fetch: async (url, init) => {
      net.requests++;
      if (net.offline) throw new TypeError('Network request failed');
      const injected = net.injected.shift();
      if (injected) {
        const headers = new Headers(injected.retryAfter ? { 'retry-after': injected.retryAfter } : {});
        return { status: injected.status, headers, text: async () => injected.body ?? '{"message":"try later"}' };
      }
      const res = await fetch(url, init);
      if (url.includes('/mobile/records')) net.recordPosts++;
      if (net.killAfterSend) {
        net.killAfterSend = false;
        await res.text();
        return new Promise<never>(() => undefined);
      }
      return res;
    },
  };
  return net;
}

export interface World {
  platform: TestPlatform;
  tenant: Tenant;
  api: ApiClient;
  stream: SseConnection;
  newUser(uid: string): Promise<{ uid: string; token: string; path: string; marketplaceUrl: string }>;
  stop(): Promise<void>;
}

export async function startWorld(label: string): Promise<World> {
  const platform = await startTestPlatform({ mode: 'embedded', label });
  const tenant = await createTenant(platform.baseUrl);
  const s = await tenant.api.post('/streams', { name: label });
  if (s.status !== 201) throw new Error(`stream: ${s.status}`);
  const stream = await connectSse(`${platform.baseUrl}/streams/${s.body.id}/connect?token=${tenant.token}`);
  const org = tenant.organizationId;
  return {
    platform,
    tenant,
    api: tenant.api,
    stream,
    async newUser(uid) {
      const created = await tenant.api.post(`/organizations/${org}/users`, { uid, location: { timezone: 'Europe/Berlin', country_code: 'DE' } });
      if (created.status !== 201) throw new Error(`user: ${created.status} ${created.text}`);
      const path = `/organizations/${org}/users/${uid}`;
      const got = (await tenant.api.get(path)).body;
      return { uid, token: got.mobile.token as string, path, marketplaceUrl: got.marketplace.url as string };
    },
    async stop() {
      stream.close();
      await platform.stop();
    },
  };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PLURAL: Record<string, string> = { measurement: 'measurements', nutrition: 'nutrition', sleep: 'sleep', summary: 'summaries', workout: 'workouts', intraday: 'intraday' };

/** Every live record of a resource on REST for the last ~33 days (two windows of at most 30 days). */
export async function restRecords(api: ApiClient, userPath: string, type: string): Promise<{ log_id: string; checksum: string; source: { type: string }; [k: string]: unknown }[]> {
  const out = [];
  for (const [from, to] of [[-34, -17], [-16, 1]]) {
    const r = await api.get(`${userPath}/${PLURAL[type]}?start_date=${day(from)}&end_date=${day(to)}`);
    if (r.status !== 200) throw new Error(`${type}: ${r.status} ${r.text}`);
    out.push(...r.body.data);
  }
  return out;
}
