/**
 * The provider budget store for this runtime: Redis in distributed mode (every replica counts
 * against the provider's one limit; while Redis is away, each process counts alone), this process
 * otherwise (embedded runs one process).
 */
import type { SourcesConfig } from '../../config';
import { FallbackProviderBudgetStore } from './provider-budget.fallback';
import { MemoryProviderBudgetStore } from './provider-budget.memory';
import type { ProviderBudgetStore } from './provider-budget.port';
import { RedisProviderBudgetStore } from './provider-budget.redis';

export function openProviderBudget(config: SourcesConfig, logger: { warn(message: string, meta?: Record<string, unknown>): unknown }): ProviderBudgetStore {
  if (config.WELLSTREAM_MODE !== 'distributed') return new MemoryProviderBudgetStore();
  const url = config.WELLSTREAM_REDIS_URL as string | undefined;
  if (!url) throw new Error('WELLSTREAM_REDIS_URL is required when WELLSTREAM_MODE=distributed');
  return new FallbackProviderBudgetStore(new RedisProviderBudgetStore({ url, keyPrefix: `${String(config.WELLSTREAM_DB_PREFIX)}:pb:`, logger }), logger);
}
