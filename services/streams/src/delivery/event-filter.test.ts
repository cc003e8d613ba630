import type { ConnectionEvent, DataEvent } from '@wellstream/contracts';
import { testRecord } from '@wellstream/testing';
import { matchesFilter, parseCustomerEvent, utcDayStart } from './event-filter';
import { alreadySeen, encodePosition, parsePosition } from './event-position';

const user = { uid: 'p1', user_id: 'u1', organization_id: 'o1' };
const base: DataEvent = {
  id: 'e1',
  event_type: 'data',
  key: 'r1',
  customer_id: 'c1',
  organization_id: 'o1',
  user_id: 'u1',
  resource: 'sleep',
  // Envelope times as decoding writes them (ISO with milliseconds).
  start_time: '2024-05-02T10:00:00.000Z',
  created_at: '2024-05-03T00:00:00.000Z',
  payload: testRecord('sleep', { id: 'r1', user, start_time: '2024-05-02T10:00:00Z' }),
};
const connection: ConnectionEvent = {
  id: 'e2',
  event_type: 'connection',
  key: 'e2',
  customer_id: 'c1',
  organization_id: 'o1',
  user_id: 'u1',
  created_at: '2024-05-03T00:00:00.000Z',
  payload: { user, source: { type: 'withings' }, action: 'connected', created_at: '2024-05-03T00:00:00Z' },
};

describe('event filter', () => {
  it('matches the customer only', () => {
    expect(matchesFilter({ customerId: 'c1' }, base)).toBe(true);
    expect(matchesFilter({ customerId: 'c2' }, base)).toBe(false);
  });
  it('filters resources on data events only', () => {
    expect(matchesFilter({ customerId: 'c1', resources: ['workout'] }, base)).toBe(false);
    expect(matchesFilter({ customerId: 'c1', resources: ['sleep'] }, base)).toBe(true);
    expect(matchesFilter({ customerId: 'c1', resources: ['workout'] }, connection)).toBe(true);
    expect(matchesFilter({ customerId: 'c1', resources: [] }, base)).toBe(true);
  });
  it('filters event types, start time and created_at at day boundaries', () => {
    expect(matchesFilter({ customerId: 'c1', eventTypes: ['rule'] }, base)).toBe(false);
    expect(matchesFilter({ customerId: 'c1', startTimeFromMs: utcDayStart('2024-05-02') }, base)).toBe(true);
    expect(matchesFilter({ customerId: 'c1', startTimeFromMs: utcDayStart('2024-05-03') }, base)).toBe(false);
    expect(matchesFilter({ customerId: 'c1', createdFromMs: utcDayStart('2024-05-03') }, base)).toBe(true);
    expect(matchesFilter({ customerId: 'c1', createdFromMs: utcDayStart('2024-05-04') }, base)).toBe(false);
  });
  it('reads calendar dates strictly', () => {
    expect(utcDayStart('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-1', 'x', '2024-04-31']) expect(utcDayStart(bad)).toBeUndefined();
  });
  it('skips what is not an event this release reads', () => {
    expect(parseCustomerEvent('not json')).toBeUndefined();
    expect(parseCustomerEvent('{"customer_id":"c"}')).toBeUndefined();
    expect(parseCustomerEvent(JSON.stringify({ ...base, payload: 'a record' }))).toBeUndefined();
    expect(parseCustomerEvent(JSON.stringify({ ...base, event_type: 'other' }))).toBeUndefined();
    expect(parseCustomerEvent(JSON.stringify({ ...base, schema_version: 3 }))).toBeUndefined();
    expect(parseCustomerEvent(JSON.stringify(base))).toEqual(base);
    expect(parseCustomerEvent(JSON.stringify(connection))).toEqual(connection);
  });
});

describe('event position', () => {
  it('round-trips and compares within a partition only', () => {
    const p = parsePosition(encodePosition({ partition: 3, offset: 42 }), 'id')!;
    expect(p).toEqual({ partition: 3, offset: 42 });
    expect(alreadySeen(p, { partition: 3, offset: 42 })).toBe(true);
    expect(alreadySeen(p, { partition: 3, offset: 43 })).toBe(false);
    expect(alreadySeen(p, { partition: 4, offset: 1 })).toBe(false);
    expect(alreadySeen(undefined, { partition: 3, offset: 1 })).toBe(false);
    expect(parsePosition(undefined, 'id')).toBeUndefined();
    expect(() => parsePosition('3:42', 'id')).toThrow();
  });
});
