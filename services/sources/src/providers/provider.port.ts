/**
 * The provider port: what the sources service needs from each provider adapter (one folder per
 * provider under providers/). An adapter knows one provider's documented API: how to authorize,
 * how to trade and refresh tokens, how to fetch a window of one resource and map it to
 * Wellstream's record model, how to verify and parse a notification, and how to revoke. It holds
 * no state and makes every HTTP call through the ProviderHttp it is given, so rate limits,
 * timeouts and logging live in one place (the service) and no adapter imports a transport.
 */
import type { FullRecordInput, MetricInput, RecordInputOf, SeriesInput } from '@wellstream/contracts';
export type { WorkoutCategory } from '@wellstream/contracts';

/** Where the provider lives and who we are to it (from WELLSTREAM_SOURCE_<TYPE>_* and the public URL). */
export interface ProviderSettings {
  clientId: string;
  clientSecret: string;
  /** The browser goes here to consent (`_AUTH_URL`). */
  authUrl: string;
  /** Code and refresh-token exchange (`_TOKEN_URL`). */
  tokenUrl: string;
  /** The base the documented data paths hang from (`_API_URL`), no trailing slash. */
  apiUrl: string;
  /** `{WELLSTREAM_PUBLIC_URL}/v2/sources/<type>/callback` */
  redirectUri: string;
  /** `{WELLSTREAM_PUBLIC_URL}/v2/sources/<type>/webhook` */
  webhookUrl: string;
  /** Credentials the provider's definition names beyond the client's (Suunto's subscription key), by key; those set. */
  extra?: Readonly<Record<string, string>>;
}

/** One outgoing HTTP request. `form` is sent application/x-www-form-urlencoded, `json` as JSON. */
export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
}

export interface ProviderResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The raw body; parse it yourself (a provider may answer garbage). */
  body: string;
}

/**
 * The service's HTTP client. It throws ProviderError('temporary') on a network error or timeout;
 * every HTTP status (2xx, 4xx, 5xx) is returned for the adapter to interpret.
 */
export interface ProviderHttp {
  send(request: ProviderRequest): Promise<ProviderResponse>;
}

/** Tokens as the vault keeps them (encrypted at rest by the service, never by the adapter). */
export interface TokenSet {
  accessToken: string;
  /** Absent for providers without refresh tokens. */
  refreshToken?: string;
  /** ISO time the access token stops working (computed from expires_in at receipt). */
  expiresAt: string;
  scope?: string;
  /** The provider's id for this user, when the token answer or a profile call gives it (webhook lookups). */
  providerUserId?: string;
}

/**
 * Failures an adapter reports. The service decides what each means for the connection:
 * - `auth_invalid`: the access token was refused (401): refresh once, then retry.
 * - `auth_revoked`: the grant is gone for good (`invalid_grant`, Withings' auth status codes):
 *   the connection becomes `auth_expired` and stops calling.
 * - `rate_limited`: wait `retryAfterMs` (from Retry-After or the provider's own headers).
 * - `temporary`: 5xx, timeout, network: retry with backoff, never expire a connection.
 * - `bad_response`: the provider answered something we cannot read (garbage, wrong shape):
 *   this sync fails with a logged error, the connection stays usable.
 * - `bad_signature`: a notification failed verification (answered 401, nothing fetched).
 * - `bad_request`: a notification or callback that is malformed (answered 400).
 * - `consent_missing`: the user must act at the provider (e.g. Polar's 403); not retried.
 */
export type ProviderErrorKind =
  | 'auth_invalid'
  | 'auth_revoked'
  | 'rate_limited'
  | 'temporary'
  | 'bad_response'
  | 'bad_signature'
  | 'bad_request'
  | 'consent_missing';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number; providerCode?: string | number } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export const isProviderError = (e: unknown): e is ProviderError => e instanceof ProviderError;

/**
 * Records as adapters write them: the record-input contract of libs/contracts, the very schemas
 * the records service validates `source-records` with (so a mapping cannot drift from them).
 */
export type ValueMetric = MetricInput;
/** A time series of one metric (intraday, cgm). */
export type SeriesMetric = SeriesInput;
/** A record in the ingestion body's shape (POST /mobile/records `records[]`), source.type set. */
export type IngestRecord = FullRecordInput;
/** A record of one type, as a mapper that makes only that type returns it. */
export type IngestRecordOf<K extends IngestRecord['type']> = RecordInputOf<K>;

/** One syncable resource of a provider, as documented. */
export interface ResourceSpec {
  /** The provider's own name (`daily_activity`, `heartrate`, `getmeas`, `egvs`, …). */
  name: string;
  /** Wellstream record types it yields. */
  recordTypes: IngestRecord['type'][];
  /** The longest window one fetch may ask for (the provider's documented limit, or a safe size). */
  maxWindowDays: number;
  /**
   * Polls need to read this resource at most this often (ms), where that is rarer than the
   * provider's poll: the provider notifies its every change (a poll only catches a notification
   * lost for good), or it changes about daily. Absent: every poll reads it.
   */
  pollAtMostEveryMs?: number;
  /**
   * The provider permission (as `missing_permissions` names it) this resource needs, where the
   * provider's permissions are not scopes (Garmin's): a resource whose permission the connection
   * lacks is not read, as the provider would only refuse it.
   */
  permission?: string;
}

export interface FetchWindow {
  /** Inclusive start, exclusive end, UTC. */
  start: Date;
  end: Date;
  /** The provider's page cursor (`next_token`, Withings' `offset`, …) when continuing a window. */
  cursor?: string;
}

export interface FetchResult {
  records: IngestRecord[];
  /** Set when the provider has another page for the same window. */
  nextCursor?: string;
}

/** What an inbound webhook request looks like to an adapter. */
export interface InboundRequest {
  method: 'GET' | 'HEAD' | 'POST';
  /** Query parameters (first value of each). */
  query: Record<string, string>;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The exact bytes received (signatures are computed over them). */
  rawBody: Buffer;
}

/** The answer to a verification handshake (Oura's challenge, Strava's hub.challenge, …). */
export interface HandshakeAnswer {
  status: number;
  /** JSON body, or a string sent as text/plain. */
  body?: unknown;
}

/** "Something changed for this provider user": the service queues a fetch of that resource. */
export interface ProviderNotification {
  providerUserId: string;
  /** A ResourceSpec name of this provider. */
  resource: string;
  /** The time range the change covers, when the notification says (else the service picks a recent window). */
  window?: { start: Date; end: Date };
  /** The provider's id of the changed object, when given. */
  objectId?: string;
  /** The provider says the object was deleted. */
  deleted?: boolean;
  /**
   * The log_ids of the records that object became, when they are not `objectId` itself (a record's
   * identity is (user, source, log_id) whatever its type, so an adapter that derives two records from
   * one id must tell them apart, e.g. WHOOP's recovery `recovery:<sleep id>` beside the sleep).
   */
  deletedLogIds?: string[];
  /**
   * The user withdrew our access at the provider (Strava's deauthorization, WHOOP's or Polar's
   * equivalents): the connection ends as `disconnected` with `reason`, without calling revoke.
   */
  deauthorized?: boolean;
  reason?: string;
  /**
   * The user changed what they share with us at the provider (Garmin's userPermissionsChange): the
   * service asks the provider which permissions are missing now (`fetchMissingPermissions`, with
   * the user's own token) rather than taking the notification's word.
   */
  permissionsChanged?: boolean;
  /**
   * The provider's identity of this delivery, the same on each of its retries and repeats, and the
   * time after which the adapter refuses it anyway (its signature is too old): until then the
   * service acts on the first delivery with this id only, across replicas.
   */
  delivery?: { id: string; expiresAt: Date };
}

/** What the service hands parseNotification besides the request. */
export interface NotificationContext {
  /** Signature secrets the provider returned when our app subscriptions were created (Polar), newest first. */
  secrets: string[];
}

/** What the service knows about the user when fetching (for time zones and ids). */
export interface FetchContext {
  /** The user's Olson time zone from their profile, or null. */
  userTimezone: string | null;
  providerUserId?: string;
  /**
   * Why the window is read: `backfill` (history, where a provider's per-object detail calls would
   * cost one request an object), `poll` or `live` (recent data, where they may be worth it).
   * Absent means backfill.
   */
  purpose?: 'backfill' | 'poll' | 'live';
}

/**
 * The scopes a provider's consent can grant or refuse one by one, as the adapter asks for them.
 * After consent the service compares them with what the user granted: none granted means no
 * connection; some refused are the connection's `missing_permissions`.
 */
export interface ConsentScopes {
  /**
   * Each scope that brings data, and the narrower scopes that bring part of it (Strava's
   * `activity:read` under `activity:read_all`): granting one of those is data, but the scope
   * itself still counts as refused.
   */
  data: { scope: string; partlyBy?: string[] }[];
}

/** An app-level webhook subscription held at the provider (Oura). */
export interface AppSubscription {
  id: string;
  /** Which of the provider's notification kinds it covers, e.g. `sleep:create`. */
  key: string;
  expiresAt?: string;
  /** A signature secret the provider returns only when the subscription is created (Polar); the service keeps it sealed. */
  secret?: string;
}

/** A notification kind the app should be subscribed to, e.g. `{ key: 'sleep:create', ... }`. */
export interface SubscriptionWant {
  key: string;
}

export interface ProviderAdapter {
  /** The source type in the catalog (`oura`, `withings`, `dexcom`). */
  readonly type: string;
  readonly resources: ResourceSpec[];
  /** Whether the authorize step uses PKCE (S256). */
  readonly pkce: boolean;
  /** The data scopes the user may refuse one by one at consent; absent when consent is all or nothing. */
  readonly consentScopes?: ConsentScopes;
  /**
   * The provider's notifications carry no signature (Strava): anyone can post one. A notification
   * that would end a connection is then acted on only after `checkAccess` shows the provider
   * refusing the user's own token.
   */
  readonly unsignedNotifications?: boolean;

  /** The URL the browser goes to: response_type=code, client_id, redirect_uri, state, scopes, and the PKCE challenge when used. */
  authorizeUrl(settings: ProviderSettings, params: { state: string; codeChallenge?: string }): string;
  exchangeCode(http: ProviderHttp, settings: ProviderSettings, params: { code: string; codeVerifier?: string }, now: Date): Promise<TokenSet>;
  /** Throws ProviderError('auth_revoked') when the provider refuses the refresh token for good. */
  refresh(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet, now: Date): Promise<TokenSet>;
  /** Revoke at the provider, where it has an endpoint (best effort; absent when it has none). */
  revoke?(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<void>;
  /** The provider's user id, when the token answer did not carry it (e.g. Oura's personal_info). */
  fetchProviderUserId?(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string>;

  /**
   * One cheap authenticated call with the user's access token: resolves while the token works,
   * throws ProviderError('auth_invalid') on the provider's 401 (other kinds as any call does).
   */
  checkAccess?(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<void>;
  /**
   * The permissions this connection needs that the user does not grant now, as the provider
   * answers them to the user's own token (Garmin's `user/permissions`); [] when all are granted.
   * They become the connection's `missing_permissions`.
   */
  fetchMissingPermissions?(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<string[]>;
  /**
   * The one object a notification names (Strava's activity by id), mapped to records; [] when the
   * provider no longer has it. Without it a notification's window is fetched instead.
   */
  fetchObject?(http: ProviderHttp, settings: ProviderSettings, accessToken: string, resource: string, objectId: string, ctx: FetchContext): Promise<IngestRecord[]>;

  /** One page of one resource over one window, mapped to records. Throws ProviderError. */
  fetchWindow(http: ProviderHttp, settings: ProviderSettings, accessToken: string, resource: string, window: FetchWindow, ctx: FetchContext): Promise<FetchResult>;

  /**
   * Answer to a GET/HEAD on the webhook URL, or to a POST that is a verification rather than a
   * notification (Google Health's subscriber check); undefined when it is not one.
   */
  handshake?(settings: ProviderSettings, req: InboundRequest, verificationToken: string): HandshakeAnswer | undefined;
  /** Verify (throws ProviderError('bad_signature')) and parse a POSTed notification. */
  parseNotification?(settings: ProviderSettings, req: InboundRequest, ctx?: NotificationContext): ProviderNotification[];
  /**
   * A step the provider requires once tokens are in, before any data call (Polar's user
   * registration). Throws ProviderError to fail the connect; may return tokens to store instead.
   */
  afterConnect?(http: ProviderHttp, settings: ProviderSettings, tokens: TokenSet): Promise<TokenSet | void>;

  /** App-level subscriptions (Oura): what the app should hold, and how to create, renew, list and delete them. */
  appSubscriptions?: {
    /**
     * The provider returns a subscription's signature secret only when creating it (Polar): one the
     * service finds but holds no secret for (a lost database, another deployment recreated it) can
     * never be verified, so the service replaces it (remove, then create).
     */
    secretOnlyOnCreate?: boolean;
    wanted(): SubscriptionWant[];
    list(http: ProviderHttp, settings: ProviderSettings): Promise<AppSubscription[]>;
    create(http: ProviderHttp, settings: ProviderSettings, want: SubscriptionWant, verificationToken: string): Promise<AppSubscription>;
    renew(http: ProviderHttp, settings: ProviderSettings, sub: AppSubscription): Promise<AppSubscription>;
    remove(http: ProviderHttp, settings: ProviderSettings, sub: AppSubscription): Promise<void>;
  };
  /** Per-user subscriptions (Withings' notify): made with the user's token on connect, removed on disconnect. */
  userSubscriptions?: {
    subscribe(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<void>;
    unsubscribe(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<void>;
  };
}
