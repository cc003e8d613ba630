/**
 * The configured providers: each adapter with its settings (credentials from config, the public
 * callback and webhook URLs) and its rate-limited HTTP client, whose budget is kept in `budget`
 * (shared by every replica in distributed mode). A provider without credentials is
 * not here, so it is neither offered nor called.
 */
import type { SourcesConfig } from '../config';
import { adapterOf } from './adapter-of';
import { PROVIDER_DEFAULTS, PROVIDER_TYPES, ProviderDefaults, ProviderType } from './provider-defaults';
import type { ProviderAdapter, ProviderHttp, ProviderSettings } from './provider.port';
import type { ProviderBudgetStore } from './budget/provider-budget.port';
import { RateLimitedHttp } from './rate-limited-http';

export interface Provider {
  type: ProviderType;
  adapter: ProviderAdapter;
  settings: ProviderSettings;
  defaults: ProviderDefaults;
  http: RateLimitedHttp;
}

export class ProviderRegistry {
  private readonly providers = new Map<string, Provider>();

  constructor(config: Pick<SourcesConfig, 'providers' | 'WELLSTREAM_PUBLIC_URL'>, transport: ProviderHttp, budget: ProviderBudgetStore, logger?: { warn(message: string, meta?: Record<string, unknown>): unknown }) {
    for (const type of PROVIDER_TYPES) {
      const p = config.providers[type];
      if (!p) continue;
      const defaults = PROVIDER_DEFAULTS[type];
      this.providers.set(type, {
        type,
        adapter: adapterOf(type),
        defaults,
        settings: {
          clientId: p.clientId,
          clientSecret: p.clientSecret,
          authUrl: p.authUrl,
          tokenUrl: p.tokenUrl,
          apiUrl: p.apiUrl,
          redirectUri: `${config.WELLSTREAM_PUBLIC_URL}/v2/sources/${type}/callback`,
          webhookUrl: `${config.WELLSTREAM_PUBLIC_URL}/v2/sources/${type}/webhook`,
          extra: p.extra,
        },
        http: new RateLimitedHttp(transport, budget, { key: type, windows: p.rateLimits, ...(p.userRateLimits ? { userWindows: p.userRateLimits } : {}), fallbackWaitMs: defaults.rateLimitFallbackMs, ...(logger ? { logger } : {}) }),
      });
    }
  }

  get(type: string): Provider | undefined {
    return this.providers.get(type);
  }

  all(): Provider[] {
    return [...this.providers.values()];
  }
}
