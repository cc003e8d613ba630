/**
 * The `organizations` topic: organization snapshots (with operator settings) published by the
 * gateway, which owns customers, organizations and tokens. Compacted by organization id.
 */
import Joi from 'joi';
import type { TopicDefinition } from './topic';

export interface OrganizationSettings {
  /** Rules feature for this organization; null follows WELLSTREAM_RULES_ENABLED. */
  rules_enabled: boolean | null;
  /** How far back record endpoints serve, in days (spec: 6 months unless agreed otherwise). */
  history_days: number;
}

export interface OrganizationSnapshot {
  id: string;
  customer_id: string;
  name: string;
  settings: OrganizationSettings;
  created_at: string;
  updated_at: string;
}

export interface OrganizationEvent {
  type: 'organization.created' | 'organization.updated';
  occurred_at: string;
  organization: OrganizationSnapshot;
}

export const DEFAULT_HISTORY_DAYS = 183;

export const organizationEventsTopic: TopicDefinition<OrganizationEvent> = {
  spec: { name: 'organizations', partitions: 1, compacted: true },
  schema: Joi.object<OrganizationEvent>({
    type: Joi.string().valid('organization.created', 'organization.updated').required(),
    occurred_at: Joi.string().isoDate().required(),
    organization: Joi.object<OrganizationSnapshot>({
      id: Joi.string().required(),
      customer_id: Joi.string().required(),
      name: Joi.string().required(),
      settings: Joi.object({
        rules_enabled: Joi.boolean().allow(null).required(),
        history_days: Joi.number().integer().min(1).required(),
      }).required(),
      created_at: Joi.string().isoDate().required(),
      updated_at: Joi.string().isoDate().required(),
    }).required(),
  }),
  key: (e) => e.organization.id,
  partitionKey: (e) => e.organization.id,
};
