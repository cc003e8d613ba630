import { derivedOf, messagesOf, OutboxEntry, PendingMessage, toEntries, unpackText } from './outbox-entry';

/** A record's data event as ingestion writes it: most of an entry is such payloads. */
const message = (n: number): PendingMessage => ({
  topic: 'customer-events',
  message: {
    key: `rec-${n}`,
    partitionKey: 'user-1',
    value: JSON.stringify({ id: `ev-${n}`, event_type: 'data', user_id: 'user-1', resource: 'measurement', payload: { id: `rec-${n}`, type: 'measurement', source: { type: 'withings' }, log_id: `log-${n}`, start_time: `2025-01-01T00:${String(n % 60).padStart(2, '0')}:00Z`, metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + n / 1000, origin: 'device' }] } }),
  },
  confirmedBy: { collection: 'records', filter: { user_id: 'user-1', _id: `rec-${n}`, checksum: `c${n}` } },
});

describe('outbox entries without transactions', () => {
  const messages = Array.from({ length: 100 }, (_, n) => message(n));
  const derived = [{ collection: 'record_keys', docs: Array.from({ length: 100 }, (_, n) => ({ _id: `key-${n}`, user_id: 'user-1', kind: 'content', record_id: `rec-${n}` })) }];

  it('hold their messages and derived documents packed, and give them back whole and in order', () => {
    const { entries, derivedKept } = toEntries(messages, 'b1', 'prepared', new Date(), derived);
    expect(derivedKept).toBe(true);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    const plain = JSON.stringify(messages.map((m) => ({ topic: m.topic, message: m.message, confirmed_by: m.confirmedBy })));
    // A 100-record batch: several times smaller than its JSON.
    expect(entry.messages!.length * 4).toBeLessThan(plain.length);
    expect(messagesOf(entry)).toEqual(messages.map((m) => ({ topic: m.topic, message: m.message, check: m.confirmedBy })));
    expect(derivedOf(entry)).toEqual(derived);
  });

  it('still read entries written before packing (plain JSON text)', () => {
    const plain: OutboxEntry = {
      _id: 'e1',
      batch_id: 'b0',
      state: 'prepared',
      messages: JSON.stringify([{ topic: 't', message: { key: 'k', value: 'v' }, confirmed_by: { collection: 'c', filter: { _id: 'x' } } }]),
      derived: JSON.stringify(derived),
      created_at: new Date().toISOString(),
    };
    expect(messagesOf(plain)).toEqual([{ topic: 't', message: { key: 'k', value: 'v' }, check: { collection: 'c', filter: { _id: 'x' } } }]);
    expect(derivedOf(plain)).toEqual(derived);
    expect(unpackText('[]')).toBe('[]');
  });
});
