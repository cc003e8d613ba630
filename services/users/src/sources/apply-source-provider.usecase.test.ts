/**
 * The projection of `source-providers`: the newest announcement per provider wins (the topic is
 * read from the beginning and delivered at least once), and only the catalog's cloud sources count.
 */
import type { SourceProviderEvent } from '@wellstream/contracts';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { SourceProviderRepository } from './source-provider.repository';
import { applySourceProvider } from './apply-source-provider.usecase';

const announce = (over: Partial<SourceProviderEvent> = {}): SourceProviderEvent => ({
  type: 'source.provider',
  source_type: 'oura',
  offered: true,
  history_days: null,
  note: null,
  authorize_origin: 'https://cloud.ouraring.com',
  occurred_at: '2025-03-01T10:00:00.000Z',
  ...over,
});

describe('applySourceProvider', () => {
  let store: SqliteDocumentStore;
  let providers: SourceProviderRepository;
  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    providers = await SourceProviderRepository.open(store);
  });
  afterEach(() => store.close());

  it('keeps the newest announcement of each provider', async () => {
    expect(await applySourceProvider(providers, announce())).toBe('applied');
    expect(await applySourceProvider(providers, announce({ source_type: 'dexcom', offered: false, authorize_origin: null }))).toBe('applied');
    const withdrawn = announce({ offered: false, authorize_origin: null, note: 'No live notifications.', occurred_at: '2025-03-02T10:00:00.000Z' });
    expect(await applySourceProvider(providers, withdrawn)).toBe('applied');
    // Redelivered or older: no change.
    expect(await applySourceProvider(providers, announce())).toBe('stale');
    expect(await applySourceProvider(providers, withdrawn)).toBe('stale');
    const { type: _type, ...expected } = withdrawn;
    expect((await providers.list()).sort((a, b) => a.source_type.localeCompare(b.source_type))).toEqual([
      { source_type: 'dexcom', offered: false, history_days: null, note: null, authorize_origin: null, occurred_at: '2025-03-01T10:00:00.000Z' },
      expected,
    ]);
  });

  it('ignores sources the catalog does not list as cloud sources', async () => {
    expect(await applySourceProvider(providers, announce({ source_type: 'demo' }))).toBe('unknown_source');
    expect(await applySourceProvider(providers, announce({ source_type: 'fitbit' }))).toBe('unknown_source');
    expect(await providers.list()).toEqual([]);
  });
});
