/**
 * The sources service announced a provider (at each of its starts): keep its newest state, so the
 * marketplace lists the cloud sources this deployment offers. Announcements of sources the catalog
 * does not list as cloud sources are ignored (a newer sources service may know more providers).
 */
import { sourceDefinition } from '@wellstream/catalog';
import type { SourceProviderEvent } from '@wellstream/contracts';
import type { SourceProviderRepository } from './source-provider.repository';

export type SourceProviderOutcome = 'applied' | 'stale' | 'unknown_source';

export async function applySourceProvider(providers: SourceProviderRepository, event: SourceProviderEvent): Promise<SourceProviderOutcome> {
  if (sourceDefinition(event.source_type)?.kind !== 'cloud') return 'unknown_source';
  const { type: _type, ...provider } = event;
  return (await providers.apply(provider)) ? 'applied' : 'stale';
}
