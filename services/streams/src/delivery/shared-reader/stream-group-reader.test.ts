import { ConsumeOptions, EventLog, LogMessage, unshared } from '@wellstream/bus';
import { NOBODY_GONE } from '@wellstream/runtime';
import { customerEvent } from '../../../test/stream-fixtures';
import type { EventSink } from '../event-sink';
import { StreamLag } from '../stream-lag';
import { StreamGroupReader } from './stream-group-reader';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

function sink(): EventSink & { closedWith?: string; ids: string[] } {
  const s: EventSink & { closedWith?: string; ids: string[] } = {
    ids: [],
    lastWriteAt: Date.now(),
    closed: false,
    droppedForNotReading: false,
    send: async (_event, _data, id) => void s.ids.push(String(id)),
    heartbeat() {},
    comment() {},
    onClose() {},
    close(reason) {
      (s as { closed: boolean }).closed = true;
      s.closedWith = reason;
    },
  };
  return s;
}

describe('a stream reader whose group cannot be joined (the broker is away)', () => {
  it('keeps its clients connected and tries again until it joins; leaves once they are gone', async () => {
    const calls: ConsumeOptions[] = [];
    let stopped = 0;
    const eventLog = {
      async consume(options: ConsumeOptions) {
        calls.push(options);
        if (calls.length < 3) throw new Error('There is no leader for this topic-partition');
        options.onAssignment?.([0, 1]);
        return { stop: async () => void stopped++ };
      },
    } as unknown as EventLog;
    let idle = false;
    const reader = new StreamGroupReader('grp', { customerId: 'cus_1' }, { eventLog, lag: new StreamLag(), logger: quiet, gone: NOBODY_GONE }, () => (idle = true));
    const client = { sink: sink() };
    reader.add(client);
    await reader.settled();
    expect(calls.length).toBe(3); // two failures, then joined (after 1 s and 2 s)
    expect(calls.every((c) => c.groupId === 'grp' && c.tenant === 'cus_1')).toBe(true);
    expect(client.sink.closed).toBe(false);
    reader.remove(client);
    await reader.settled();
    expect(stopped).toBe(1);
    expect(idle).toBe(true);
  }, 10_000);

  it('stops trying once its last client has gone', async () => {
    let calls = 0;
    const eventLog = {
      async consume() {
        calls++;
        throw new Error('broker unreachable');
      },
    } as unknown as EventLog;
    const reader = new StreamGroupReader('grp', { customerId: 'cus_1' }, { eventLog, lag: new StreamLag(), logger: quiet, gone: NOBODY_GONE }, () => {});
    const client = { sink: sink() };
    reader.add(client);
    await new Promise((r) => setTimeout(r, 50));
    reader.remove(client);
    await reader.settled();
    expect(calls).toBe(1);
  }, 10_000);
});

describe('a rebalance handing back what was already written', () => {
  it('writes each position to a connection once: the connection never goes back in a user’s events', async () => {
    let options: ConsumeOptions | undefined;
    const eventLog = {
      async consume(o: ConsumeOptions) {
        options = o;
        o.onAssignment?.([0]);
        return { stop: async () => {} };
      },
    } as unknown as EventLog;
    const reader = new StreamGroupReader('grp', { customerId: 'cus_1' }, { eventLog, lag: new StreamLag(), logger: quiet, gone: NOBODY_GONE }, () => {});
    const client = { sink: sink() };
    reader.add(client);
    await reader.settled();
    const tenant = { customerId: 'cus_1', organizationId: 'org_1', token: '', api: undefined as never };
    const message = (offset: number): LogMessage => ({ topic: 'events', partition: 0, offset, key: 'k', value: JSON.stringify(customerEvent(tenant, { userId: 'u1' })), headers: {}, timestamp: Date.now() });
    const m = [message(10), message(11), message(12)];
    for (const x of m) await options!.handle(x, unshared);
    // Positions are committed every 100 ms: after a rebalance the group hands back 11 and 12.
    for (const x of [m[1], m[2], message(13)]) await options!.handle(x, unshared);
    expect(client.sink.ids).toEqual(['0-10', '0-11', '0-12', '0-13']);
  });
});
