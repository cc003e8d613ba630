/**
 * A replay cut off mid-way leaves nothing running: its reader is stopped, reads no more, and its
 * slot is given back. On the embedded log, with a history far longer than what the client takes.
 */
import { NOBODY_GONE } from '@wellstream/runtime';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventLog, Subscription, TailOptions } from '@wellstream/bus';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { customerEventsTopic, publishEvents } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { eventually } from '@wellstream/testing';
import { customerEvent } from '../../../test/stream-fixtures';
import { CustomerQuota } from '../customer-quota';
import { ClientGoneError, EventSink } from '../event-sink';
import { parseReplayQuery } from './replay.schema';
import { startReplay } from './replay.usecase';
import { systemClock } from '@wellstream/clock';

class CountingSink implements EventSink {
  sent = 0;
  lastWriteAt = Date.now();
  closed = false;
  droppedForNotReading = false;
  private readonly listeners: (() => void)[] = [];
  constructor(private readonly closeAfter: number) {}
  async send(): Promise<void> {
    if (this.closed) throw new ClientGoneError();
    await new Promise((r) => setImmediate(r)); // a socket that takes a moment per frame
    if (++this.sent === this.closeAfter) this.close();
  }
  heartbeat(): void {}
  comment(): void {}
  onClose(l: () => void): void {
    this.listeners.push(l);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const l of this.listeners.splice(0)) l();
  }
}

describe('replay cut off mid-way', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-replay-'));
  const log = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger: createLogger('test') });
  afterAll(async () => {
    await log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stops its reader, reads nothing more, and gives its slot back', async () => {
    await log.ensureTopic(customerEventsTopic.spec);
    const tenant = { customerId: 'cus_cut', organizationId: 'org_cut', token: '', api: undefined as never };
    for (let b = 0; b < 4; b++) await publishEvents(log, customerEventsTopic, Array.from({ length: 500 }, (_, i) => customerEvent(tenant, { userId: `u${i % 9}`, mark: `${b}-${i}` })));

    let readerStopped = false;
    let handled = 0;
    const watched: EventLog = Object.create(log);
    watched.tail = async (o: TailOptions): Promise<Subscription> => {
      const sub = await log.tail({ ...o, handle: async (m) => (handled++, o.handle(m)) });
      return {
        stop: async () => {
          await sub.stop();
          readerStopped = true;
        },
      };
    };
    const quota = new CustomerQuota({ stream: 1, replay: 1, tail: 1, retryAfterSeconds: 1 });
    const release = quota.acquire(tenant.customerId, 'replay');
    const sink = new CountingSink(100);
    startReplay({ clock: systemClock, gone: NOBODY_GONE, eventLog: watched, quota, logger: createLogger('test'), pokeIntervalMs: 60_000, eventsPerSecond: 1_000_000 }, tenant.customerId, parseReplayQuery({}, undefined), sink, release);

    await eventually(async () => readerStopped, 10_000);
    expect(quota.active(tenant.customerId, 'replay')).toBe(0);
    const handledAtStop = handled;
    await new Promise((r) => setTimeout(r, 300));
    expect(handled).toBe(handledAtStop);
    expect(sink.sent).toBe(100);
    expect(handled).toBeLessThan(2000);
  });
});
