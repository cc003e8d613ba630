/**
 * What every provider simulator offers the provider simulator suite. A simulator is a real HTTP server on a
 * loopback port that answers the provider's documented requests with documented payloads, built
 * from the provider's public documentation (never from our adapter). The suite drives it through
 * this interface only, so one suite runs every provider.
 */
export interface SimulatedUser {
  /** The provider's id for the user (what its notifications carry). */
  providerUserId: string;
}

export interface ProviderSimulator {
  readonly type: string;
  /** Base URL once started, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * WELLSTREAM_SOURCE_<TYPE>_CLIENT_ID, _CLIENT_SECRET, _AUTH_URL, _TOKEN_URL, _API_URL pointing at
   * this simulator.
   */
  env(): Record<string, string>;

  /** A provider account with `days` days of realistic data ending at `now`. */
  createUser(options: { days: number; now: Date }): SimulatedUser;
  /**
   * Plays the provider's consent step for `user` on an authorize URL our platform produced
   * (checks response_type, client_id, redirect_uri, state, scopes, PKCE when used) and returns
   * the redirect the provider would send the browser to (redirect_uri with code+state, or
   * error=access_denied+state when `decision` is deny). Throws when the URL is invalid.
   */
  authorize(authorizeUrl: string, user: SimulatedUser, decision: 'allow' | 'deny'): string;
  /**
   * The authorize URL also works in a browser: GET it and the simulator shows a page with
   * "Allow" and "Deny" buttons for the user set here, which redirect as above.
   */
  setBrowserUser(user: SimulatedUser): void;

  /** How many records of each Wellstream type the user's data maps to with start_time in [from, to). */
  expectedCounts(user: SimulatedUser, from: Date, to: Date): Partial<Record<string, number>>;
  /** New data at `at` for one resource; returns the log_id(s) Wellstream records should carry. */
  addData(user: SimulatedUser, resource: string, at: Date): string[];
  /**
   * Sends the provider's notification for the last addData of `resource` to `webhookUrl`, exactly
   * as the provider would (its signature, its encoding). Resolves to our HTTP status.
   * Undefined for providers without notifications (Dexcom).
   */
  notify?(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number>;
  /** The same notification with a wrong signature (or, without signatures, for an unknown user). */
  notifyForged?(webhookUrl: string, user: SimulatedUser, resource: string): Promise<number>;
  /**
   * An old object changes now: one the user logs late, or edits, whose time is `at` (days ago);
   * notify() then announces it. Returns the log_ids whose records must change (or appear).
   */
  editData?(user: SimulatedUser, resource: string, at: Date): string[];
  /** The provider's retry of a notification whose first attempt failed, signed `ageMs` ago (signed providers). */
  notifyRetry?(webhookUrl: string, user: SimulatedUser, resource: string, ageMs: number): Promise<number>;
  /** The last notification sent again byte for byte: the provider's duplicate delivery. */
  redeliver?(): Promise<number>;
  /** How many times the provider was asked for the object `id` by its id. */
  objectFetches?(user: SimulatedUser, id: string): number;

  /** Every access token of `user` is expired now (the next data call answers 401). */
  expireAccessTokens(user: SimulatedUser): void;
  /** The user's grant is revoked at the provider: refresh answers invalid_grant (or its equivalent). */
  revokeGrant(user: SimulatedUser): void;
  /** The next `count` data calls answer `status` (429 carries Retry-After: retryAfterS; 200 with garbage when status is 'garbage'). */
  failNext(count: number, status: number | 'garbage', retryAfterS?: number): void;
  /** Calls received, for assertions: token exchanges, refreshes, revokes, data requests. */
  stats(user?: SimulatedUser): { tokenExchanges: number; refreshes: number; revokes: number; dataRequests: number };
  /** Webhook subscriptions the simulator holds for our app (Oura: app-level; Withings: per user). */
  subscriptions(): { key: string; callbackUrl: string; expiresAt?: string }[];
  /**
   * Our webhook URL changed (a restarted test platform binds a new port; a real deployment keeps
   * its public URL): a provider that sends on its own (Garmin's backfill pings) delivers there now.
   */
  webhookMoved?(webhookUrl: string): void;
}
