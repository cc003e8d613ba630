/**
 * Notification receipts on the embedded store: a delivery remembered is seen until it expires,
 * per source type; remembering it twice (two replicas taking copies at once) is no error; the sweep
 * removes only the expired. (The distributed store runs the same code in the WHOOP simulator suite.)
 */
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { NotificationReceipts } from './notification-receipts.repository';

describe('NotificationReceipts', () => {
  let store: SqliteDocumentStore;
  let receipts: NotificationReceipts;
  const at = (iso: string) => new Date(iso);
  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    receipts = await NotificationReceipts.open(store);
  });
  afterEach(() => store.close());

  it('sees a remembered delivery until it expires, per source type', async () => {
    expect(await receipts.seen('whoop', 'trace-1:sleep.updated:s1', at('2026-01-01T10:00:00Z'))).toBe(false);
    await receipts.remember('whoop', 'trace-1:sleep.updated:s1', at('2026-01-01T12:00:00Z'));
    expect(await receipts.seen('whoop', 'trace-1:sleep.updated:s1', at('2026-01-01T11:59:59Z'))).toBe(true);
    expect(await receipts.seen('whoop', 'trace-1:sleep.updated:s1', at('2026-01-01T12:00:01Z'))).toBe(false);
    expect(await receipts.seen('polar', 'trace-1:sleep.updated:s1', at('2026-01-01T11:00:00Z'))).toBe(false);
    expect(await receipts.seen('whoop', 'trace-1:recovery.updated:s1', at('2026-01-01T11:00:00Z'))).toBe(false);
  });

  it('takes a second copy of the same delivery without error, and sweeps only the expired', async () => {
    await receipts.remember('whoop', 'a', at('2026-01-01T12:00:00Z'));
    await expect(receipts.remember('whoop', 'a', at('2026-01-01T12:00:00Z'))).resolves.toBeUndefined();
    await receipts.remember('whoop', 'b', at('2026-01-01T14:00:00Z'));
    expect(await receipts.sweepExpired(at('2026-01-01T13:00:00Z'))).toBe(1);
    expect(await receipts.seen('whoop', 'a', at('2026-01-01T11:00:00Z'))).toBe(false);
    expect(await receipts.seen('whoop', 'b', at('2026-01-01T13:00:00Z'))).toBe(true);
  });
});
