/**
 * Follows the compacted `source-providers` topic (which cloud sources this deployment offers) into
 * the users store, for the marketplace (apply-source-provider).
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { consumeEvents, sourceProvidersTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { SourceProviderRepository } from './source-provider.repository';
import { applySourceProvider } from './apply-source-provider.usecase';

export function consumeSourceProviders(log: EventLog, providers: SourceProviderRepository, logger: Logger): Promise<Subscription> {
  return consumeEvents(log, sourceProvidersTopic, {
    groupId: 'users.source-providers',
    fromBeginning: true,
    logger,
    handle: async (event) => {
      const outcome = await applySourceProvider(providers, event);
      if (outcome === 'unknown_source') logger.warn('ignoring a provider the catalog does not list as a cloud source', { source_type: event.source_type });
      else logger.info('source provider', { source_type: event.source_type, offered: event.offered, outcome });
    },
  });
}
