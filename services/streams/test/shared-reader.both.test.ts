/**
 * One reader per stream per process: many clients of a stream on one process share one member of
 * the stream's consumer group; a client leaving hands its users to another local client at once;
 * a client that stops reading is dropped without holding up the others beyond the write timeout;
 * and (distributed) two replicas split a stream's users between their clients.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { composeStreams, loadStreamsConfig } from '@wellstream/streams-service';
import type { RunningService } from '@wellstream/runtime';
import type { CollectionSpec, DocumentStore } from '@wellstream/store';
import { connectSse, createTenant, eventually, gatewayHeaders, SseConnection, Tenant, TEST_GATEWAY_KEY, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { connectStream, marksOf, publish, sleep } from './stream-fixtures';

const POKE_MS = 1000;

/** The store with reads of the `streams` collection made slow by `ms` (everything else as it is). */
function slowStreamReads(store: DocumentStore, ms: number): DocumentStore {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop !== 'collection') return typeof value === 'function' ? value.bind(target) : value;
      return async (spec: CollectionSpec) => {
        const collection = await target.collection(spec);
        if (spec.name !== 'streams') return collection;
        return new Proxy(collection, {
          get(c, p) {
            const f = Reflect.get(c, p, c);
            if (p === 'findOne') return async (...a: unknown[]) => (await sleep(ms), (f as (...x: unknown[]) => unknown).apply(c, a));
            return typeof f === 'function' ? f.bind(c) : f;
          },
        });
      };
    },
  });
}
const WRITE_TIMEOUT_MS = 1000;

function sharedReaderSuite(mode: 'embedded' | 'distributed') {
  describe(`one stream reader per process (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    const open: SseConnection[] = [];

    const connect = async (streamId: string) => {
      const c = await connectStream(platform.baseUrl, tenant, streamId);
      expect(c.status).toBe(200);
      open.push(c);
      return c;
    };
    const createStream = async () => {
      const res = await tenant.api.post('/streams', { name: `s-${randomUUID()}` });
      expect(res.status).toBe(201);
      return res.body as { id: string; group: string };
    };
    const members = async (id: string) => (await tenant.api.get(`/streams/${id}`)).body.members as number;
    const users = (n: number) => {
      const prefix = randomUUID().slice(0, 8);
      return [...Array(n).keys()].map((i) => `${prefix}-u${i}`);
    };
    const publishRound = (us: string[], round: number, padding?: number) =>
      publish(platform.eventLog, tenant, us.map((u) => ({ userId: u, mark: `${u}/${round}`, padding })));
    /** Who received each user's events (by client index), and every mark once in order per user. */
    const ownersOf = (clients: SseConnection[], from: number[] = clients.map(() => 0)) => {
      const owner = new Map<string, Set<number>>();
      clients.forEach((c, i) => {
        for (const m of marksOf({ ...c, events: c.events.slice(from[i]) })) {
          const u = m.split('/')[0];
          owner.set(u, (owner.get(u) ?? new Set()).add(i));
        }
      });
      return owner;
    };
    const allMarks = (clients: SseConnection[], from: number[] = clients.map(() => 0)) => clients.flatMap((c, i) => marksOf({ ...c, events: c.events.slice(from[i]) }));
    const waitAll = (clients: SseConnection[], expected: string[], from?: number[]) =>
      eventually(async () => {
        const got = new Set(allMarks(clients, from));
        return expected.every((m) => got.has(m));
      }, 30_000);

    beforeAll(async () => {
      platform = await startTestPlatform({
        mode,
        label: 'streams-shared',
        env: {
          WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY,
          WELLSTREAM_POKE_INTERVAL_MS: String(POKE_MS),
          WELLSTREAM_STREAM_MAX_MEMBERS: '40',
          WELLSTREAM_STREAM_MAX_CONNECTIONS_PER_CUSTOMER: '100',
          WELLSTREAM_STREAM_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS),
          WELLSTREAM_STREAM_MAX_BUFFER_BYTES: String(256 * 1024),
        },
      });
    });
    afterAll(async () => {
      for (const c of open) c.close();
      await platform?.stop();
    });
    beforeEach(async () => {
      tenant = await createTenant(platform.baseUrl);
    });
    afterEach(() => {
      for (const c of open.splice(0)) c.close();
    });

    it('serves 30 clients of one stream through one member of its group, each user on one client, in order', async () => {
      const stream = await createStream();
      const clients: SseConnection[] = [];
      for (let i = 0; i < 30; i++) clients.push(await connect(stream.id));
      await eventually(async () => (await members(stream.id)) === 30);
      // The broker (or the embedded log) sees this process once, however many clients it serves.
      expect(await platform.eventLog.groupMemberCount(stream.group)).toBe(1);

      const us = users(60);
      for (const round of [1, 2, 3]) await publishRound(us, round);
      const expected = us.flatMap((u) => [1, 2, 3].map((r) => `${u}/${r}`));
      await waitAll(clients, expected);
      await sleep(300);
      const marks = allMarks(clients);
      expect(marks.slice().sort()).toEqual(expected.slice().sort());
      for (const [, owners] of ownersOf(clients)) expect(owners.size).toBe(1);
      for (const c of clients) {
        const perUser = new Map<string, number>();
        for (const m of marksOf(c)) {
          const [u, r] = m.split('/');
          expect(Number(r)).toBeGreaterThan(perUser.get(u) ?? 0);
          perUser.set(u, Number(r));
        }
      }
      // 12 partitions per customer: at most 12 clients have users, and the work is spread.
      const busy = clients.filter((c) => marksOf(c).length > 0).length;
      expect(busy).toBeGreaterThanOrEqual(10);
      expect(busy).toBeLessThanOrEqual(12);
    });

    it('hands a leaving client’s users to another local client at once, losing nothing', async () => {
      const stream = await createStream();
      const clients = [await connect(stream.id), await connect(stream.id), await connect(stream.id)];
      await eventually(async () => (await members(stream.id)) === 3);
      const us = users(36);
      await publishRound(us, 1);
      await waitAll(clients, us.map((u) => `${u}/1`));
      const before = ownersOf(clients);
      const leaver = 0;
      const leaversUsers = [...before].filter(([, o]) => o.has(leaver)).map(([u]) => u);
      expect(leaversUsers.length).toBeGreaterThan(0);

      clients[leaver].close();
      await eventually(async () => (await members(stream.id)) === 2);
      const stay = clients.slice(1);
      const from = stay.map((c) => c.events.length);
      await publishRound(us, 2);
      await waitAll(stay, us.map((u) => `${u}/2`), from);
      const after = ownersOf(stay, from);
      // The leaver's users now reach one of the two others; the others kept theirs.
      for (const u of leaversUsers) expect(after.get(u)?.size).toBe(1);
      for (const [u, o] of before) if (!o.has(leaver)) expect([...after.get(u)!].map((i) => i + 1)).toEqual([...o]);
      expect(await platform.eventLog.groupMemberCount(stream.group)).toBe(1);
    });

    it('drops a client that stops reading after the write timeout; its users go to the other client, which keeps receiving its own', async () => {
      const stream = await createStream();
      const reader = await connect(stream.id);
      const url = new URL(`${platform.baseUrl}/streams/${stream.id}/connect?token=${tenant.token}`);
      const stuck = net.connect(Number(url.port), url.hostname);
      await once(stuck, 'connect');
      stuck.pause(); // never reads
      stuck.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
      const stuckClosed = once(stuck, 'close');
      try {
        await eventually(async () => (await members(stream.id)) === 2);
        const us = users(24);
        // ~24 MB, half of it for the client that does not read: far more than loopback buffers hold.
        for (let round = 1; round <= 10; round++) await publishRound(us, round, 100_000);
        await eventually(async () => (await members(stream.id)) === 1, 30_000);
        await publishRound(us, 11);
        // Every user's events reach the reading client in the end, its own and the stuck client's:
        // also those written to the stuck client's socket, which it never read; each once, in order.
        const rounds = [...Array(11).keys()].map((r) => r + 1);
        await waitAll([reader], us.flatMap((u) => rounds.map((r) => `${u}/${r}`)));
        const got = marksOf(reader);
        for (const u of us) expect(got.filter((m) => m.startsWith(`${u}/`))).toEqual(rounds.map((r) => `${u}/${r}`));
      } finally {
        stuck.destroy();
        await stuckClosed;
      }
    });

    if (mode === 'distributed') {
      it('answers 503 with a Retry-After of 1 to 5 s and {"message"} to connections beyond what it sets up at once, and serves them on retry', async () => {
        const env = { ...platform.env, WELLSTREAM_SERVICE_HOST: '127.0.0.1', WELLSTREAM_SERVICE_PORT: '0', WELLSTREAM_PUBLIC_URL: platform.publicUrl, WELLSTREAM_STREAM_MAX_CONNECTING: '2' };
        // Each set-up here reads its stream 300 ms slowly (a loaded store), so the 30 overlap for sure.
        const small: RunningService = await composeStreams(loadStreamsConfig(env), { observeStore: (_service, store) => slowStreamReads(store, 300) });
        try {
          const stream = await createStream();
          const target = `/v2/streams/${stream.id}/connect`;
          const attempt = () => connectSse(`${small.url}${target}`, { headers: gatewayHeaders(TEST_GATEWAY_KEY, 'GET', target, { customerId: tenant.customerId }) });
          // A storm: 30 connections opened first, then their requests written in one go.
          const port = Number(new URL(small.url).port);
          const sockets = await Promise.all(
            [...Array(30)].map(async () => {
              const socket = net.connect(port, '127.0.0.1');
              await once(socket, 'connect');
              return socket;
            }),
          );
          const heads = sockets.map((socket) => {
            let text = '';
            socket.setEncoding('utf8');
            socket.on('data', (d: string) => (text += d));
            return () => text;
          });
          for (const socket of sockets) {
            const h = gatewayHeaders(TEST_GATEWAY_KEY, 'GET', target, { customerId: tenant.customerId });
            socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
          }
          try {
            // Every answer's head, and a refusal's whole body (Content-Length), have arrived.
            const complete = (a: string) => {
              const at = a.indexOf('\r\n\r\n');
              if (at < 0) return false;
              const length = /\r\ncontent-length: (\d+)/i.exec(a.slice(0, at))?.[1];
              return length === undefined || Buffer.byteLength(a.slice(at + 4)) >= Number(length);
            };
            await eventually(async () => heads.every((h) => complete(h())), 20_000);
            const answers = heads.map((h) => h());
            const status = (a: string) => Number(a.slice(9, 12));
            const busy = answers.filter((a) => status(a) === 503);
            expect(busy.length).toBeGreaterThan(0);
            expect(answers.every((a) => status(a) === 200 || status(a) === 503)).toBe(true);
            for (const a of busy) {
              const retryAfter = Number(/\r\nretry-after: (\d+)/i.exec(a)?.[1]);
              expect(retryAfter).toBeGreaterThanOrEqual(1);
              expect(retryAfter).toBeLessThanOrEqual(5);
              expect(JSON.parse(a.slice(a.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.stringMatching(/connecting/) });
            }
            const refused = busy.length;
            // Each one refused gets in when it comes back (one at a time here).
            for (let i = 0; i < refused; i++) {
              const again = await attempt();
              open.push(again);
              expect(again.status).toBe(200);
            }
          } finally {
            for (const socket of sockets) socket.destroy();
          }
        } finally {
          await small.stop();
        }
      });

      it('splits a stream between two replicas, each serving its clients, and counts members across them', async () => {
        const env = { ...platform.env, WELLSTREAM_SERVICE_HOST: '127.0.0.1', WELLSTREAM_SERVICE_PORT: '0', WELLSTREAM_PUBLIC_URL: platform.publicUrl };
        const second: RunningService = await composeStreams(loadStreamsConfig(env));
        try {
          const stream = await createStream();
          const viaSecond = async () => {
            const target = `/v2/streams/${stream.id}/connect`;
            const c = await connectSse(`${second.url}${target}`, { headers: gatewayHeaders(TEST_GATEWAY_KEY, 'GET', target, { customerId: tenant.customerId }) });
            expect(c.status).toBe(200);
            open.push(c);
            return c;
          };
          const clients = [await connect(stream.id), await connect(stream.id), await viaSecond(), await viaSecond()];
          // Counted across replicas (this GET is answered by the first replica).
          await eventually(async () => (await members(stream.id)) === 4, 10_000);
          await eventually(async () => (await platform.eventLog.groupMemberCount(stream.group)) === 2, 30_000);

          const us = users(48);
          // Rounds until the brokers' rebalance between the two replicas has settled: then each
          // round reaches each user on exactly one client, and both replicas serve some users.
          let settled = false;
          for (let round = 1; round <= 15 && !settled; round++) {
            const from = clients.map((c) => c.events.length);
            await publishRound(us, round);
            await waitAll(clients, us.map((u) => `${u}/${round}`), from);
            await sleep(300);
            const owners = ownersOf(clients, from);
            const once = allMarks(clients, from).length === us.length && [...owners.values()].every((o) => o.size === 1);
            const servedBy = new Set([...owners.values()].map((o) => (Math.min(...o) < 2 ? 'first' : 'second')));
            settled = once && servedBy.size === 2;
          }
          expect(settled).toBe(true);
        } finally {
          await second.stop();
        }
      });
    }
  });
}

sharedReaderSuite(testRuntime());
