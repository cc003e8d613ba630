import { PROVIDERS, PROVIDER_TYPES, isProviderType, type ProviderCredential, type ProviderType } from '@wellstream/providers';
import type { BudgetWindow } from './budget/provider-budget.port';

/**
 * What this service reads of each provider's definition (libs/providers): its production
 * addresses (the defaults of WELLSTREAM_SOURCE_<TYPE>_AUTH_URL/_TOKEN_URL/_API_URL), its documented
 * limits and what the marketplace says about it. Derived, never listed here.
 */
export { PROVIDER_TYPES, isProviderType, type ProviderType };

export interface ProviderDefaults {
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  /** Documented history limit in days, when there is one. */
  historyDays: number | null;
  /** What the marketplace tells the user about this provider's data, in words (its documents' limits). */
  note?: string;
  /** Whether data arrives by notification; otherwise it is polled. */
  notifications: boolean;
  /**
   * The provider's documented limits for our application, all users together, in every window it
   * documents (the budget keeps each across replicas; WELLSTREAM_SOURCE_<TYPE>_RATE_LIMITS replaces
   * them for an application granted more). The provider's README.md cites each page.
   */
  rateLimits: BudgetWindow[];
  /** The provider's documented limits per user, kept per connection (empty: none documented). */
  userRateLimits: BudgetWindow[];
  /** What a 429 without a readable header waits (the provider's shortest window). */
  rateLimitFallbackMs: number;
  /** Credentials beyond the client id and secret, each WELLSTREAM_SOURCE_<TYPE>_<key> (a subscription key). */
  credentials: readonly ProviderCredential[];
}

export const PROVIDER_DEFAULTS = Object.fromEntries(
  PROVIDERS.map((p): [ProviderType, ProviderDefaults] => [
    p.type,
    {
      ...p.addresses,
      historyDays: p.capabilities.historyDays,
      ...('note' in p ? { note: p.note } : {}),
      notifications: p.capabilities.webhooks,
      rateLimits: p.limits.windows.map((w) => ({ ...w })),
      userRateLimits: ((p.limits as { perUser?: readonly BudgetWindow[] }).perUser ?? []).map((w) => ({ ...w })),
      rateLimitFallbackMs: p.limits.fallbackWaitMs,
      credentials: 'credentials' in p ? p.credentials : [],
    },
  ]),
) as Record<ProviderType, ProviderDefaults>;
