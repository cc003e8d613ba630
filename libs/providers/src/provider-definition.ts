/**
 * What the platform knows about a cloud provider without calling it: data only, so that the
 * catalog, the gateway's declarations and the sources service all read the same facts. The
 * sources service's `providers/<type>/` folder holds the code that talks to it.
 */

/** A documented request limit: `limit` requests per `windowMs`, for our application (all users together). */
export interface LimitWindow {
  limit: number;
  windowMs: number;
}

export interface ProviderDefinition {
  /** The source type on the wire and in WELLSTREAM_SOURCE_<TYPE>_* (upper-cased). */
  type: string;
  /** Shown in the marketplace. */
  name: string;
  kind: 'cloud';
  /**
   * An app rather than a device: a user types into it or it relays other devices' data (a watch's
   * runs uploaded to Strava). The platform's default merge order ranks devices above apps.
   */
  app: boolean;
  /** The resource types its records can carry (checked against the catalog's resources when loaded). */
  resources: readonly string[];
  /** The marketplace tile: brand-free initials and colour, and its place among the cloud tiles. */
  tile: { initials: string; color: string; position: number };
  /** Production addresses: the defaults of WELLSTREAM_SOURCE_<TYPE>_AUTH_URL, _TOKEN_URL, _API_URL. */
  addresses: { authUrl: string; tokenUrl: string; apiUrl: string };
  limits: {
    /**
     * Every window the provider documents (the budget keeps each across replicas;
     * WELLSTREAM_SOURCE_<TYPE>_RATE_LIMITS replaces them for an application granted more).
     */
    windows: readonly LimitWindow[];
    /**
     * Windows the provider documents for each of its users, kept per connection beside the
     * application's (WELLSTREAM_SOURCE_<TYPE>_USER_RATE_LIMITS replaces them). Absent: none.
     */
    perUser?: readonly LimitWindow[];
    /** What a 429 without a readable header waits (the provider's shortest window). */
    fallbackWaitMs: number;
  };
  capabilities: {
    /** Data arrives by notification (signed or not); polling is then a fallback. */
    webhooks: boolean;
    /** New data is fetched on a schedule (every provider: the only way without webhooks, a net with them). */
    polling: boolean;
    /** The authorize step uses PKCE (S256). */
    pkce: boolean;
    /** Documented history depth in days, when there is one (bounds the backfill). */
    historyDays: number | null;
    /**
     * `per-scope`: the consent page lets the user refuse some of the data scopes asked for, and the
     * token answer says which were granted (missing ones become `missing_permissions`).
     * `all-or-nothing`: a grant is the whole of it, or the provider takes no scope parameter at all.
     */
    consent: 'per-scope' | 'all-or-nothing';
  };
  /** What the marketplace tells the user about this provider's data, in words (its documents' limits). */
  note?: string;
  /**
   * Credentials beyond the OAuth client id and secret (an API key, a webhook secret), each read from
   * WELLSTREAM_SOURCE_<TYPE>_<key>: a required one missing keeps the provider from being offered.
   */
  credentials?: readonly ProviderCredential[];
}

export interface ProviderCredential {
  /** Upper-case, the variable's suffix: `SUBSCRIPTION_KEY` → WELLSTREAM_SOURCE_<TYPE>_SUBSCRIPTION_KEY. */
  key: string;
  required: boolean;
  /** The configuration reference's words for it. */
  description: string;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
