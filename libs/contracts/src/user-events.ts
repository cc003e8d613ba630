/**
 * The `users` topic: user lifecycle, each message a full snapshot of the user after the change,
 * so a projection only keeps the newest snapshot per user (compacted by user id).
 */
import Joi from 'joi';
import type { TopicDefinition } from './topic';
import { PhoneUploads, phoneUploadsSchema } from './source-connections';

export const USER_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.suspended',
  'user.unsuspended',
  'source.connected',
  'source.disconnected',
  /** A connected source's entry changed (provider connection status, last sync, history import). */
  'source.updated',
  'marketplace.refreshed',
  /** A customer rotated the user's mobile token (a lost phone): the old one stops working. */
  'mobile_token.rotated',
] as const;

/**
 * The consumer groups on `users` that authenticate mobile tokens from their projection without
 * waiting for the log: a rotation is answered only once they have applied it, so the old token is
 * refused at once everywhere (the sources service reads its projection at the log's end anyway).
 */
export const MOBILE_TOKEN_COPIES = { records: 'records.user-projection' } as const;
export type UserEventType = (typeof USER_EVENT_TYPES)[number];

export type UserStatus = 'active' | 'suspended' | 'deleted';

export interface UserSnapshot {
  id: string;
  uid: string;
  organization_id: string;
  customer_id: string;
  status: UserStatus;
  timezone: string | null;
  /** `user_defined` when the user chose the zone in the marketplace, else `profile`. */
  timezone_origin: 'profile' | 'user_defined';
  country_code: string | null;
  mobile_token: string;
  /**
   * sha256 (hex) of the marketplace token: lets the sources service find the user of a marketplace
   * URL without the token itself ever leaving the users service. Absent in older snapshots.
   */
  marketplace_token_sha256?: string;
  /** Connected sources; provider sources also carry their connection's health (sources service). */
  sources: ConnectedSourceSnapshot[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ConnectedSourceSnapshot {
  type: string;
  connected_at: string;
  status?: 'active' | 'auth_expired' | 'error';
  last_synced_at?: string | null;
  backfill?: { state: 'running' | 'done'; progress: number; start: string; end: string } | null;
  /** Provider sources: the data permissions the user refused at consent; absent when none was. */
  missing_permissions?: string[];
  /** Phone sources: what the app's uploads have brought; absent before the first. */
  uploaded?: PhoneUploads;
}

export interface UserEvent {
  type: UserEventType;
  occurred_at: string;
  user: UserSnapshot;
  /** source.connected / source.disconnected / source.updated: which source. */
  source_type?: string;
}

const snapshotSchema = Joi.object<UserSnapshot>({
  id: Joi.string().required(),
  uid: Joi.string().required(),
  organization_id: Joi.string().required(),
  customer_id: Joi.string().required(),
  status: Joi.string().valid('active', 'suspended', 'deleted').required(),
  timezone: Joi.string().allow(null).required(),
  timezone_origin: Joi.string().valid('profile', 'user_defined').required(),
  country_code: Joi.string().allow(null).required(),
  mobile_token: Joi.string().required(),
  marketplace_token_sha256: Joi.string().max(128),
  sources: Joi.array()
    .items(
      Joi.object({
        type: Joi.string().required(),
        connected_at: Joi.string().isoDate().required(),
        status: Joi.string().valid('active', 'auth_expired', 'error'),
        last_synced_at: Joi.string().isoDate().allow(null),
        backfill: Joi.object({
          state: Joi.string().valid('running', 'done').required(),
          progress: Joi.number().min(0).max(1).required(),
          start: Joi.string().isoDate().required(),
          end: Joi.string().isoDate().required(),
        }).allow(null),
        missing_permissions: Joi.array().items(Joi.string().max(200)).max(50),
        uploaded: phoneUploadsSchema,
      }),
    )
    .required(),
  created_at: Joi.string().isoDate().required(),
  updated_at: Joi.string().isoDate().required(),
  deleted_at: Joi.string().isoDate().allow(null).required(),
});

export const userEventsTopic: TopicDefinition<UserEvent> = {
  spec: { name: 'users', partitions: 6, compacted: true },
  schema: Joi.object<UserEvent>({
    type: Joi.string()
      .valid(...USER_EVENT_TYPES)
      .required(),
    occurred_at: Joi.string().isoDate().required(),
    user: snapshotSchema.required(),
    source_type: Joi.string(),
  }),
  key: (e) => e.user.id,
  partitionKey: (e) => e.user.id,
};
