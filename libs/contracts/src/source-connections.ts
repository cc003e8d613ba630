/**
 * The topics of the sources service (it owns provider connections; users owns `sources` on the
 * user and turns these into the customer's `connection` events):
 * - `source-connections`: a connection's state changed (connected, reconnected, auth_expired,
 *   backfill progress or completion, a sync, disconnected), keyed by user and source.
 * - `source-providers`: which cloud sources this deployment offers (credentials configured),
 *   compacted by source type, so the marketplace lists only sources that work.
 * - `source-records`: records fetched from a provider, in the ingestion body's shape; records
 *   ingests them through its one ingestion path (same validation, identity, checksums, events).
 */
import Joi from 'joi';
import type { RecordInput } from './record-input/record-input.schema';
import type { TopicDefinition } from './topic';

/**
 * The consumer groups that keep a copy of users' connections from `source-connections`: the users
 * service (`user.sources`, the customer's `connection` events) and records (availability). A change
 * the sources service answers itself (the marketplace's Connect and Disconnect of the demo source
 * and the phone apps) is answered once both have applied it, so no read after the answer shows the
 * old state.
 */
export const SOURCE_CONNECTION_COPIES = { users: 'users.source-connections', records: 'records.source-connections' } as const;

export const SOURCE_CONNECTION_ACTIONS = ['connected', 'reconnected', 'disconnected', 'auth_expired', 'backfill_progress', 'backfill_completed', 'synced', 'status'] as const;
export type SourceConnectionAction = (typeof SOURCE_CONNECTION_ACTIONS)[number];
export const SOURCE_CONNECTION_STATUSES = ['active', 'auth_expired', 'error'] as const;
export type SourceConnectionStatus = (typeof SOURCE_CONNECTION_STATUSES)[number];

/** How far a connection's first fetch of history has got (all resources together). */
export interface BackfillProgress {
  state: 'running' | 'done';
  /** 0..1: days fetched over days asked, summed over resources. */
  progress: number;
  /** The range asked for. */
  start: string;
  end: string;
}

/**
 * What a phone source's uploads have brought since it was connected: the resource types, and the
 * latest end time of a record in them (null when the uploads held only deletions).
 */
export interface PhoneUploads {
  resources: string[];
  last_record_at: string | null;
}

export const phoneUploadsSchema = Joi.object({ resources: Joi.array().items(Joi.string().max(50)).max(20).required(), last_record_at: Joi.string().isoDate().allow(null).required() });

export interface SourceConnectionEvent {
  type: 'source.connection';
  action: SourceConnectionAction;
  user_id: string;
  organization_id: string;
  source_type: string;
  status: SourceConnectionStatus;
  connected_at: string;
  last_synced_at: string | null;
  backfill: BackfillProgress | null;
  /**
   * The data permissions the user refused at the provider's consent (the provider's scope names),
   * on every event of a connection that has some; absent when every one asked for was granted.
   */
  missing_permissions?: string[];
  /** Phone sources: what the app's uploads have brought (see PhoneUploads); absent before the first. */
  uploaded?: PhoneUploads;
  /** backfill_completed: which resource and range. */
  resource?: string;
  range?: { start: string; end: string };
  /** disconnected / auth_expired / status: why, in words. */
  reason?: string;
  occurred_at: string;
}

const backfillSchema = Joi.object<BackfillProgress>({
  state: Joi.string().valid('running', 'done').required(),
  progress: Joi.number().min(0).max(1).required(),
  start: Joi.string().isoDate().required(),
  end: Joi.string().isoDate().required(),
});

export const sourceConnectionsTopic: TopicDefinition<SourceConnectionEvent> = {
  spec: { name: 'source-connections', partitions: 6, retentionMs: 7 * 24 * 3600 * 1000 },
  schema: Joi.object<SourceConnectionEvent>({
    type: Joi.string().valid('source.connection').required(),
    action: Joi.string()
      .valid(...SOURCE_CONNECTION_ACTIONS)
      .required(),
    user_id: Joi.string().required(),
    organization_id: Joi.string().required(),
    source_type: Joi.string().required(),
    status: Joi.string()
      .valid(...SOURCE_CONNECTION_STATUSES)
      .required(),
    connected_at: Joi.string().isoDate().required(),
    last_synced_at: Joi.string().isoDate().allow(null).required(),
    backfill: backfillSchema.allow(null).required(),
    missing_permissions: Joi.array().items(Joi.string().max(200)).min(1).max(50),
    uploaded: phoneUploadsSchema,
    resource: Joi.string(),
    range: Joi.object({ start: Joi.string().isoDate().required(), end: Joi.string().isoDate().required() }),
    reason: Joi.string().max(500),
    occurred_at: Joi.string().isoDate().required(),
  }),
  key: (e) => `${e.user_id}:${e.source_type}`,
  partitionKey: (e) => e.user_id,
};

export interface SourceProviderEvent {
  type: 'source.provider';
  source_type: string;
  /** Credentials are configured: the marketplace may offer it. */
  offered: boolean;
  /** How far back the provider lets us read, in days, when it documents a limit. */
  history_days: number | null;
  /** Polling only (no notifications), in words for the marketplace, e.g. "every 15 minutes". */
  note: string | null;
  /**
   * Origin of the provider's authorize page: the marketplace's form posts end in a redirect there,
   * and its Content-Security-Policy (form-action) must allow it.
   */
  authorize_origin: string | null;
  occurred_at: string;
}

export const sourceProvidersTopic: TopicDefinition<SourceProviderEvent> = {
  spec: { name: 'source-providers', partitions: 1, compacted: true },
  schema: Joi.object<SourceProviderEvent>({
    type: Joi.string().valid('source.provider').required(),
    source_type: Joi.string().required(),
    offered: Joi.boolean().required(),
    history_days: Joi.number().integer().min(1).allow(null).required(),
    note: Joi.string().max(300).allow(null).required(),
    authorize_origin: Joi.string().uri({ scheme: ['http', 'https'] }).allow(null).required(),
    occurred_at: Joi.string().isoDate().required(),
  }),
  key: (e) => e.source_type,
  partitionKey: (e) => e.source_type,
};

export interface SourceRecordsEvent {
  type: 'source.records';
  /** Unique per message (logs and dead letters name it). */
  id: string;
  user_id: string;
  organization_id: string;
  source_type: string;
  /**
   * Records of the record-input contract (the ingestion body's shape). The message itself checks
   * only that each is an object: records validates them one by one with the record-input schemas,
   * as it validates any post, so one record a provider got wrong is refused and logged without
   * losing the message's other records.
   */
  records: RecordInput[];
  fetched_at: string;
}

/** A message stays well under Kafka's default 1 MB message limit at this many records. */
export const SOURCE_RECORDS_MAX_PER_MESSAGE = 100;

export const sourceRecordsTopic: TopicDefinition<SourceRecordsEvent> = {
  spec: { name: 'source-records', partitions: 6, retentionMs: 7 * 24 * 3600 * 1000 },
  schema: Joi.object<SourceRecordsEvent>({
    type: Joi.string().valid('source.records').required(),
    id: Joi.string().required(),
    user_id: Joi.string().required(),
    organization_id: Joi.string().required(),
    source_type: Joi.string().required(),
    records: Joi.array().items(Joi.object().unknown(true)).min(1).max(SOURCE_RECORDS_MAX_PER_MESSAGE).required(),
    fetched_at: Joi.string().isoDate().required(),
  }),
  key: (e) => e.id,
  partitionKey: (e) => e.user_id,
};
