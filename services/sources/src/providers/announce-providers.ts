/**
 * Tells the platform which provider sources this deployment offers (credentials configured), on
 * the compacted `source-providers` topic: the marketplace lists a cloud source only when it is
 * offered here, so a source without credentials is never shown. Sent at every start.
 */
import type { EventLog } from '@wellstream/bus';
import { eventMessage, sourceProvidersTopic } from '@wellstream/contracts';
import { PROVIDER_DEFAULTS, PROVIDER_TYPES } from './provider-defaults';
import type { ProviderRegistry } from './provider-registry';

export async function announceProviders(log: EventLog, registry: ProviderRegistry, at: Date, pollIntervalS: number): Promise<void> {
  const messages = PROVIDER_TYPES.map((type) => {
    const d = PROVIDER_DEFAULTS[type];
    return eventMessage(sourceProvidersTopic, {
      type: 'source.provider' as const,
      source_type: type,
      offered: registry.get(type) !== undefined,
      history_days: d.historyDays,
      note: [d.note, d.notifications ? undefined : `No live notifications: new data is fetched every ${Math.round(pollIntervalS / 60)} minutes.`].filter(Boolean).join(' ') || null,
      authorize_origin: registry.get(type) ? new URL(registry.get(type)!.settings.authUrl).origin : null,
      occurred_at: at.toISOString(),
    });
  });
  await log.publish(sourceProvidersTopic.spec.name, messages);
}
