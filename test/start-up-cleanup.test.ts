/**
 * A start that fails halfway stops what had started: consumers leave their groups, the document
 * store closes, and nothing keeps the process alive. Each deployable is started on a port that is
 * already taken, so everything before HTTP starts and only the last step fails; the skeleton
 * itself is also made to fail inside a service's own composition.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { composeGateway, loadGatewayConfig } from '@wellstream/gateway';
import { createLogger } from '@wellstream/logging';
import { composeNotifications, loadNotificationsConfig } from '@wellstream/notifications-service';
import { composeRecords, loadRecordsConfig } from '@wellstream/records-service';
import { composeRules, loadRulesConfig } from '@wellstream/rules-service';
import { composeStreams, loadStreamsConfig } from '@wellstream/streams-service';
import { composeUsers, loadUsersConfig } from '@wellstream/users-service';
import { RunningService, SharedInfra, startService } from '@wellstream/runtime';
import type { DocumentStore } from '@wellstream/store';
import { TEST_GATEWAY_KEY } from '@wellstream/testing';

let dir: string;
let eventLog: EmbeddedEventLog;
let taken: net.Server;
let takenPort: number;
const stores: DocumentStore[] = [];
const shared = (): SharedInfra => ({
  eventLog,
  observeStore: (_service, store) => {
    stores.push(store);
    return store;
  },
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-start-cleanup-'));
  eventLog = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger: createLogger('test') });
  taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await eventLog.close();
  await new Promise((r) => taken.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  stores.length = 0;
});

const env = (service: string) => ({
  WELLSTREAM_DATA_DIR: path.join(dir, service),
  WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY,
  WELLSTREAM_SERVICE_HOST: '127.0.0.1',
  WELLSTREAM_SERVICE_PORT: String(takenPort),
  WELLSTREAM_PUBLIC_URL: 'http://127.0.0.1:1',
});

const deployables: [string, () => Promise<RunningService>, string[]][] = [
  ['gateway', () => composeGateway(loadGatewayConfig({ ...env('gateway'), WELLSTREAM_HOST: '127.0.0.1', WELLSTREAM_PORT: String(takenPort) }), shared()), []],
  ['users', () => composeUsers(loadUsersConfig(env('users')), shared()), ['users.source-connections', 'users.organization-owners']],
  ['records', () => composeRecords(loadRecordsConfig(env('records')), shared()), ['records.user-projection', 'records.organization-projection']],
  ['streams', () => composeStreams(loadStreamsConfig(env('streams')), shared()), []],
  ['notifications', () => composeNotifications(loadNotificationsConfig(env('notifications')), shared()), ['notifications.organization-owners', 'notifications.push']],
  ['rules', () => composeRules(loadRulesConfig(env('rules')), shared()), ['rules.organizations', 'rules.users', 'rules.data']],
];

describe.each(deployables)('%s, when HTTP cannot listen', (_name, start, groups) => {
  it('fails, and stops every part it had started', async () => {
    fs.mkdirSync(path.join(dir, _name), { recursive: true });
    await expect(start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(stores).toHaveLength(1);
    expect(await stores[0].healthy()).toBe(false);
    for (const group of groups) expect(await eventLog.groupMemberCount(group)).toBe(0);
  });
});

describe('the skeleton, when a service fails inside its own start', () => {
  it('stops what the service had started, last first, then its store; an event log shared by the process stays open', async () => {
    const config = loadStreamsConfig({ ...env('skeleton'), WELLSTREAM_SERVICE_PORT: '0' });
    fs.mkdirSync(path.join(dir, 'skeleton'), { recursive: true });
    const stopped: string[] = [];
    await expect(
      startService({
        name: 'skeleton',
        config,
        shared: shared(),
        listen: { host: '127.0.0.1', port: 0 },
        async compose(ctx) {
          ctx.lifecycle.onStop('first', () => void stopped.push('first'));
          await ctx.eventLog.ensureTopic({ name: 'skeleton-probe', partitions: 1 });
          ctx.lifecycle.started('consumer', await ctx.eventLog.consume({ topic: 'skeleton-probe', groupId: 'skeleton.probe', handle: async () => undefined }));
          ctx.lifecycle.onStop('last', () => void stopped.push('last'));
          expect(await ctx.eventLog.groupMemberCount('skeleton.probe')).toBe(1);
          throw new Error('a consumer failed to start');
        },
      }),
    ).rejects.toThrow('a consumer failed to start');
    expect(stopped).toEqual(['last', 'first']);
    expect(await eventLog.groupMemberCount('skeleton.probe')).toBe(0);
    expect(await stores[0].healthy()).toBe(false);
    expect(await eventLog.healthy()).toBe(true);
  });
});
