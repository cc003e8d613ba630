/**
 * The `users` topic: user lifecycle, each message a full snapshot of the user after the change,
 * so a projection only keeps the newest snapshot per user (compacted by user id).
 */
import Joi from 'joi';
import type { TopicDefinition } from './topic';

export const USER_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.suspended',
  'user.unsuspended',
  'source.connected',
  'source.disconnected',
  'marketplace.refreshed',
] as const;
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
  sources: { type: string; connected_at: string }[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface UserEvent {
  type: UserEventType;
  occurred_at: string;
  user: UserSnapshot;
  /** source.connected / source.disconnected: which source. */
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
  sources: Joi.array()
    .items(Joi.object({ type: Joi.string().required(), connected_at: Joi.string().isoDate().required() }))
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
