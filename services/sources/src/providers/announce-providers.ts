/**
 * Tells the platform which provider sources this deployment offers (credentials configured), on
 * the compacted `source-providers` topic: the marketplace lists a cloud source only when it is
 * offered here, so a source without credentials is never shown. Sent at every start.
 */
import type { EventLog } from '@wellstream/bus';
import { eventMessage, SourceOffer, sourceProvidersTopic } from '@wellstream/contracts';
import { PROVIDER_DEFAULTS, PROVIDER_TYPES } from './provider-defaults';
import type { ProviderRegistry } from './provider-registry';

/** What the marketplace shows of each provider source here (offered or not, how far back, how it syncs). */
export function providerOffers(registry: ProviderRegistry, at: Date, pollIntervalS: number): SourceOffer[] {
  return PROVIDER_TYPES.map((type) => {
    const d = PROVIDER_DEFAULTS[type];
    const provider = registry.get(type);
    return {
      source_type: type,
      offered: provider !== undefined,
      history_days: d.historyDays,
      note: [d.note, d.notifications ? undefined : `No live notifications: new data is fetched every ${Math.round(pollIntervalS / 60)} minutes.`].filter(Boolean).join(' ') || null,
      authorize_origin: provider ? new URL(provider.settings.authUrl).origin : null,
      occurred_at: at.toISOString(),
    };
  });
}

export async function announceProviders(log: EventLog, offers: SourceOffer[]): Promise<void> {
  const messages = offers.map((offer) => eventMessage(sourceProvidersTopic, { type: 'source.provider' as const, ...offer }));
  await log.publish(sourceProvidersTopic.spec.name, messages);
}
